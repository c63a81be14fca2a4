// The operators' queue gauges: a report, like the sellers' metrics. It reads the rows of the
// outbox, webhook endpoints and subscriptions (owned by their domains), and writes none.
import type { SqlClient } from '../../infra/db.js';

/**
 * Undispatched outbox events are counted up to this many: the count walks the partial range of
 * the `(dispatched_at, sequence)` index, so a dispatcher stuck for days must not make every scrape
 * walk millions of rows. A backlog at the cap is an alert long before it.
 */
export const OUTBOX_BACKLOG_CAP = 100_000;

export type OperationalState = {
  outboxBacklog: number;
  /** Seconds since the oldest undispatched event was recorded; 0 with none. */
  outboxOldestSeconds: number;
  /** Disabled webhook endpoints by why: `gone` (410), `failing` (10 events in a row), `seller`. */
  disabledEndpoints: { gone: number; failing: number; seller: number };
  /** Subscriptions whose renewal failed and is being retried (`past_due`). */
  dunning: number;
};

/** One round trip, every part on an index: the outbox's `(dispatched_at, sequence)`, the subscriptions' `(status, …)`. */
export async function readOperationalState(sql: SqlClient): Promise<OperationalState> {
  const { rows } = await sql.query<{
    outbox_backlog: number;
    outbox_oldest_seconds: number | null;
    gone: number;
    failing: number;
    seller: number;
    dunning: number;
  }>(
    `SELECT
       (SELECT count(*)::int FROM (SELECT 1 FROM outbox_events WHERE dispatched_at IS NULL LIMIT $1) b) AS outbox_backlog,
       (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM outbox_events WHERE dispatched_at IS NULL)
         AS outbox_oldest_seconds,
       count(*) FILTER (WHERE e.disabled_reason = 'gone')::int AS gone,
       count(*) FILTER (WHERE e.disabled_reason = 'failing')::int AS failing,
       count(*) FILTER (WHERE e.disabled_reason IS NULL)::int AS seller,
       (SELECT count(*)::int FROM subscriptions WHERE status = 'past_due') AS dunning
     FROM webhook_endpoints e WHERE NOT e.enabled`,
    [OUTBOX_BACKLOG_CAP],
  );
  const row = rows[0]!;
  return {
    outboxBacklog: row.outbox_backlog,
    outboxOldestSeconds: Math.max(0, row.outbox_oldest_seconds ?? 0),
    disabledEndpoints: { gone: row.gone, failing: row.failing, seller: row.seller },
    dunning: row.dunning,
  };
}
