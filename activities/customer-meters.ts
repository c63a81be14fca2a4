import { Context } from '@temporalio/activity';
import {
  CUSTOMERS_PER_REFRESH,
  refreshStaleCustomerMeters,
  type CustomerMeterWorkflows,
} from '../domain/customer-meters/service.js';
import type { Db } from '../infra/db.js';

export type CustomerMeterActivityDeps = { db: Db; workflows: { customerMeters: CustomerMeterWorkflows } };

/**
 * How often the refresher looks for stale customers while there are none. It is also the
 * debounce: a customer's events arriving within it move their meters, and fire
 * `customer.state_changed`, once.
 */
const REFRESH_POLL_MS = 1000;

export function createCustomerMeterActivities({ db, workflows }: CustomerMeterActivityDeps) {
  return {
    /**
     * Refreshes stale customers' meters as they appear, for up to `watchMs`; returns once none is
     * left after refreshing some, or at the end of the watch (the dispatcher's shape: a query per
     * poll costs less than a workflow timer per poll in Temporal's history).
     */
    async refreshCustomerMeters({ watchMs }: { watchMs: number }): Promise<{ customers: number }> {
      const context = Context.current();
      const deadline = Date.now() + watchMs;
      let customers = 0;
      for (;;) {
        const round = await refreshStaleCustomerMeters(db);
        customers += round.customers;
        context.heartbeat();
        if (round.customers === CUSTOMERS_PER_REFRESH && Date.now() < deadline) continue;
        if (customers > 0 || Date.now() >= deadline) return { customers };
        await context.sleep(REFRESH_POLL_MS);
      }
    },

    async ensureCustomerMeterRefresher(): Promise<boolean> {
      return workflows.customerMeters.ensureRefresher();
    },
  };
}

export type CustomerMeterActivities = ReturnType<typeof createCustomerMeterActivities>;
