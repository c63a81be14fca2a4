import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { SqlClient } from '../../infra/db.js';
import { registerOperationalGauges } from './operational.js';

const row = { outbox_backlog: 3, outbox_oldest_seconds: 42.5, gone: 1, failing: 0, seller: 2, dunning: 4 };

function fakeSql(answer: () => Promise<unknown>) {
  let calls = 0;
  const sql = {
    query: () => {
      calls += 1;
      return answer();
    },
  } as unknown as SqlClient;
  return { sql, calls: () => calls };
}

describe('the queue gauges', () => {
  it('are read once per scrape, whatever number of gauges it collects', async () => {
    const fake = fakeSql(() => Promise.resolve({ rows: [row] }));
    const registry = new Registry();
    registerOperationalGauges(registry, fake.sql);
    const text = await registry.metrics();
    // The queues' statement and stuck work's four (activities, outbox, endpoints, checkouts).
    expect(fake.calls()).toBe(5);
    expect(text).toContain('tollgate_operational_state_up 1');
    expect(text).toContain('tollgate_outbox_backlog 3');
    expect(text).toContain('tollgate_outbox_oldest_age_seconds 42.5');
    expect(text).toContain('tollgate_webhook_endpoints_disabled{reason="seller"} 2');
    expect(text).toContain('tollgate_subscriptions_dunning 4');
    await new Promise((resolve) => setImmediate(resolve));
    await registry.metrics();
    expect(fake.calls()).toBe(10);
  });

  it('keep their last values and say so when the database does not answer', async () => {
    let up = true;
    const fake = fakeSql(() => (up ? Promise.resolve({ rows: [row] }) : Promise.reject(new Error('down'))));
    const registry = new Registry();
    registerOperationalGauges(registry, fake.sql);
    await registry.metrics();
    await new Promise((resolve) => setImmediate(resolve));
    up = false;
    const text = await registry.metrics();
    expect(text).toContain('tollgate_operational_state_up 0');
    expect(text).toContain('tollgate_outbox_backlog 3');
  });
});
