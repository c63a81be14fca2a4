import pg from 'pg';

/** How often the session proves it is still alive (a dead peer sends no RST). */
const PROBE_INTERVAL_MS = 2_000;
/** A probe not answered in this time counts the connection as lost. */
const PROBE_TIMEOUT_MS = 1_500;
const RECONNECT_DELAY_MS = 1_000;

export type KeptSessionOptions = {
  connection: pg.ClientConfig;
  /** `application_name`, so an operator (and a test) can tell the session apart in pg_stat_activity. */
  name: string;
  /** Makes a fresh connection what the session is for (LISTEN, a lock); throwing counts as a loss. */
  open(client: pg.Client): Promise<void>;
  /** Up after `open` succeeded (first, or again after a loss), down at a loss or stop. */
  statusChanged(up: boolean): void;
};

/**
 * One PostgreSQL session kept for the life of the process, for what only a session can hold
 * (LISTEN, advisory locks): reconnected after a loss, and probed so that a silently dead connection
 * is noticed within a few seconds instead of never.
 */
export class KeptSession {
  private client: pg.Client | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private up = false;
  private stopped = false;

  constructor(private readonly options: KeptSessionOptions) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.drop();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      ...this.options.connection,
      keepAlive: true,
      application_name: this.options.name,
    });
    this.client = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await this.options.open(client);
    } catch {
      this.lost(client);
      return;
    }
    if (this.client !== client || this.stopped) return;
    this.setUp(true);
    this.probeTimer = setInterval(() => void this.probe(client), PROBE_INTERVAL_MS);
    this.probeTimer.unref();
  }

  private async probe(client: pg.Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), PROBE_TIMEOUT_MS);
    });
    const answered = await Promise.race([client.query('SELECT 1').then(() => 'ok' as const), timedOut]).catch(
      () => 'failed' as const,
    );
    clearTimeout(timer);
    if (answered !== 'ok') this.lost(client);
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    void this.drop();
    if (this.stopped) return;
    this.reconnectTimer = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS);
    this.reconnectTimer.unref();
  }

  private async drop(): Promise<void> {
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
    const client = this.client;
    this.client = null;
    this.setUp(false);
    await client?.end().catch(() => undefined);
  }

  private setUp(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    this.options.statusChanged(up);
  }
}
