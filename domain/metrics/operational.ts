// The operators' gauges (docs/operations.md): the state of the system's queues, read from the
// database at each scrape (repository-operational.ts).
import { Gauge, type Registry } from 'prom-client';
import type { SqlClient } from '../../infra/db.js';
import { withTimeout } from '../../infra/timeout.js';
import { countStuckWork } from '../operators/repository-stuck-work.js';
import { STUCK_WORK_KINDS, type StuckWorkKind } from '../operators/stuck-work.js';
import { OUTBOX_BACKLOG_CAP, readOperationalState, type OperationalState } from './repository-operational.js';

type ScrapedState = OperationalState & { stuckWork: Record<StuckWorkKind, number> };

const readScrapedState = async (sql: SqlClient): Promise<ScrapedState> => {
  const [state, stuckWork] = await Promise.all([readOperationalState(sql), countStuckWork(sql)]);
  return { ...state, stuckWork };
};

/** A scrape waits this long for the queue gauges, then serves the rest without them. */
const READ_TIMEOUT_MS = 3_000;

/**
 * The queue gauges, read once per scrape however many of them it collects. A database that does
 * not answer leaves them at their last values and sets `tollgate_operational_state_up` to 0, so a
 * scrape still shows the process's own metrics.
 */
export function registerOperationalGauges(registry: Registry, sql: SqlClient): void {
  let pending: Promise<ScrapedState | null> | null = null;
  const read = () => {
    // Within a scrape's usual timeout (Prometheus: 10 s), though the pool waits 20 s for a connection.
    pending ??= withTimeout('the queue gauges', READ_TIMEOUT_MS, readScrapedState(sql))
      .catch(() => null)
      .finally(() => setImmediate(() => (pending = null)));
    return pending;
  };
  new Gauge({
    name: 'tollgate_operational_state_up',
    help: 'Whether the last scrape read the queue gauges from the database (1) or could not (0).',
    registers: [registry],
    async collect() {
      this.set((await read()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'tollgate_outbox_backlog',
    help: `Outbox events not yet dispatched to webhook endpoints (counted up to ${OUTBOX_BACKLOG_CAP}).`,
    registers: [registry],
    async collect() {
      const state = await read();
      if (state) this.set(state.outboxBacklog);
    },
  });
  new Gauge({
    name: 'tollgate_outbox_oldest_age_seconds',
    help: 'Age of the oldest outbox event not yet dispatched; 0 when none waits.',
    registers: [registry],
    async collect() {
      const state = await read();
      if (state) this.set(state.outboxOldestSeconds);
    },
  });
  new Gauge({
    name: 'tollgate_webhook_endpoints_disabled',
    help: 'Disabled webhook endpoints by reason: gone (answered 410), failing (10 events in a row failed), seller.',
    labelNames: ['reason'] as const,
    registers: [registry],
    async collect() {
      const state = await read();
      if (!state) return;
      for (const [reason, count] of Object.entries(state.disabledEndpoints)) this.set({ reason }, count);
    },
  });
  new Gauge({
    name: 'tollgate_subscriptions_dunning',
    help: 'Subscriptions past due: a renewal failed and its retries are under way.',
    registers: [registry],
    async collect() {
      const state = await read();
      if (state) this.set(state.dunning);
    },
  });
  new Gauge({
    name: 'tollgate_stuck_work',
    help: 'Stuck work by kind (docs/operations.md, "Stuck work"): activities past their attempts threshold, outbox events not dispatched for 5 minutes, endpoints failing for an hour, checkouts confirmed an hour ago and not charged.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const state = await read();
      if (!state) return;
      for (const kind of STUCK_WORK_KINDS) this.set({ kind }, state.stuckWork[kind]);
    },
  });
}
