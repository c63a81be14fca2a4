import pg from 'pg';

export type ChangeFeedHandlers = {
  /** A NOTIFY on the channel arrived: `payload` names what changed. */
  changed(payload: string): void;
  /**
   * The feed is up (first, or again after a loss) or down. While it is down, changes may be missed:
   * nothing may be trusted that only a notification would correct.
   */
  statusChanged(listening: boolean): void;
};

/** How often the listening connection proves it is still alive (a dead peer sends no RST). */
const PROBE_INTERVAL_MS = 2_000;
/** A probe not answered in this time counts the connection as lost. */
const PROBE_TIMEOUT_MS = 1_500;
const RECONNECT_DELAY_MS = 1_000;

export const changeFeedConnectionName = (channel: string) => `tollgate-feed-${channel}`;

/**
 * PostgreSQL `LISTEN` on one channel over a connection of its own, kept up for the life of the
 * process: reconnected after a loss, and probed so that a silently dead connection is noticed
 * within a few seconds instead of never.
 */
export class ChangeFeed {
  private client: pg.Client | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private listening = false;
  private stopped = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly channel: string,
    private readonly handlers: ChangeFeedHandlers,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  }

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.drop();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    // Named so an operator (and a test) can tell the feed's connection apart in pg_stat_activity.
    const client = new pg.Client({
      ...this.connection,
      keepAlive: true,
      application_name: changeFeedConnectionName(this.channel),
    });
    this.client = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.handlers.changed(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch {
      this.lost(client);
      return;
    }
    if (this.client !== client || this.stopped) return;
    this.setListening(true);
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
    this.drop();
    if (this.stopped) return;
    this.reconnectTimer = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS);
    this.reconnectTimer.unref();
  }

  private drop(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
    const client = this.client;
    this.client = null;
    this.setListening(false);
    client?.end().catch(() => undefined);
  }

  private setListening(listening: boolean): void {
    if (this.listening === listening) return;
    this.listening = listening;
    this.handlers.statusChanged(listening);
  }
}
