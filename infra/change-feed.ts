import type pg from 'pg';
import { KeptSession } from './kept-session.js';

export type ChangeFeedHandlers = {
  /** A NOTIFY on the channel arrived: `payload` names what changed. */
  changed(payload: string): void;
  /**
   * The feed is up (first, or again after a loss) or down. While it is down, changes may be missed:
   * nothing may be trusted that only a notification would correct.
   */
  statusChanged(listening: boolean): void;
};

export const changeFeedConnectionName = (channel: string) => `tollgate-feed-${channel}`;

/** PostgreSQL `LISTEN` on one channel over a session of its own, kept for the life of the process. */
export class ChangeFeed {
  private readonly session: KeptSession;

  constructor(connection: pg.ClientConfig, channel: string, handlers: ChangeFeedHandlers) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
    this.session = new KeptSession({
      connection,
      name: changeFeedConnectionName(channel),
      open: async (client) => {
        client.on('notification', (message) => {
          if (message.channel === channel) handlers.changed(message.payload ?? '');
        });
        await client.query(`LISTEN ${channel}`);
      },
      statusChanged: handlers.statusChanged,
    });
  }

  start(): void {
    this.session.start();
  }

  stop(): Promise<void> {
    return this.session.stop();
  }
}
