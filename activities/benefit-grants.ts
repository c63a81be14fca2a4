import { Context } from '@temporalio/activity';
import {
  applyBenefitGrants,
  CUSTOMERS_PER_SYNC,
  reconcileBenefitGrantWorkflows,
  syncBenefitGrants,
  type BenefitGrantWorkflows,
} from '../domain/benefit-grants/service.js';
import type { GrantPair } from '../domain/benefit-grants/repository.js';
import type { AccountPlatforms } from '../domain/customer-accounts/platforms.js';
import type { Db } from '../infra/db.js';

export type BenefitGrantActivityDeps = {
  db: Db;
  /** GitHub and Discord, where those benefits are granted. */
  accountPlatforms: AccountPlatforms;
  workflows: { benefitGrants: BenefitGrantWorkflows };
};

/** How often the dispatcher looks for marked customers while there are none (also its debounce). */
const DISPATCH_POLL_MS = 1000;

export function createBenefitGrantActivities({ db, accountPlatforms, workflows }: BenefitGrantActivityDeps) {
  return {
    applyBenefitGrants: (pair: GrantPair) => applyBenefitGrants({ db, platforms: accountPlatforms }, pair),

    async dispatchBenefitGrants({ watchMs }: { watchMs: number }): Promise<{ customers: number }> {
      const context = Context.current();
      const deadline = Date.now() + watchMs;
      let customers = 0;
      for (;;) {
        const round = await syncBenefitGrants(db);
        // After the commit: a wake lost here is the reconciler's to heal.
        await workflows.benefitGrants.wake(round.pairs);
        customers += round.customers;
        context.heartbeat();
        if (round.customers === CUSTOMERS_PER_SYNC && Date.now() < deadline) continue;
        if (customers > 0 || Date.now() >= deadline) return { customers };
        await context.sleep(DISPATCH_POLL_MS);
      }
    },

    ensureBenefitGrantDispatcher: () => workflows.benefitGrants.ensureDispatcher(),
    reconcileBenefitGrants: () => reconcileBenefitGrantWorkflows(db, workflows.benefitGrants),
  };
}

export type BenefitGrantActivities = ReturnType<typeof createBenefitGrantActivities>;
