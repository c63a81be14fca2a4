// What a customer should hold, and how a grant gets there. Pure: shared by the service, the
// workflows and the tests.

/** `benefit-grant:<customer>:<benefit>`: every grant and revoke of one benefit for one customer, in order. */
export const benefitGrantWorkflowId = (customerId: string, benefitId: string) =>
  `benefit-grant:${customerId}:${benefitId}`;

/** One per deployment: turns the marks of changed customers into grant workflows. */
export const benefitGrantDispatcherWorkflowId = (taskQueue: string) =>
  `benefit-grant-dispatcher:${taskQueue}`;

export const BENEFIT_GRANT_SIGNALS = { changed: 'grants-changed' } as const;

export type GrantDesire = 'granted' | 'revoked';

/** What entitles a customer to a product's benefits: a one-time order or a subscription. */
export type GrantSource = { kind: 'order' | 'subscription'; id: string };

/** A benefit the customer should hold through a source. */
export type DesiredGrant = { customerId: string; benefitId: string; source: GrantSource };

export type ExistingGrant = {
  id: string;
  customerId: string;
  benefitId: string;
  orderId: string | null;
  subscriptionId: string | null;
  desired: string;
};

const keyOf = (customerId: string, benefitId: string, source: GrantSource) =>
  `${customerId}|${benefitId}|${source.kind}:${source.id}`;

const sourceOf = (grant: ExistingGrant): GrantSource =>
  grant.subscriptionId
    ? { kind: 'subscription', id: grant.subscriptionId }
    : { kind: 'order', id: grant.orderId! };

export type GrantPlan = {
  /** New rows, to be granted. */
  create: DesiredGrant[];
  /** Existing rows whose desire changes (a re-grant reuses the row; a revoke keeps it). */
  desire: { id: string; desired: GrantDesire }[];
};

/**
 * Brings the customers' grant rows to what they should hold: a row per (customer, benefit,
 * source), granted while the source entitles them to the benefit, revoked after. Rows are never
 * deleted: a grant's history (and its license key) survives a revoke and is reused on a re-grant.
 */
export function planGrants(desired: DesiredGrant[], existing: ExistingGrant[]): GrantPlan {
  const wanted = new Map(
    desired.map((grant) => [keyOf(grant.customerId, grant.benefitId, grant.source), grant]),
  );
  const plan: GrantPlan = { create: [], desire: [] };
  const seen = new Set<string>();
  for (const row of existing) {
    const key = keyOf(row.customerId, row.benefitId, sourceOf(row));
    seen.add(key);
    const desire: GrantDesire = wanted.has(key) ? 'granted' : 'revoked';
    if (row.desired !== desire) plan.desire.push({ id: row.id, desired: desire });
  }
  for (const [key, grant] of wanted) if (!seen.has(key)) plan.create.push(grant);
  return plan;
}

/** What a grant row holds now, and what it should. */
export type GrantState = {
  desired: string;
  grantedAt: Date | null;
  revokedAt: Date | null;
  cyclesRequested: number;
  cyclesApplied: number;
  updateRequested: boolean;
};

export const isHeld = (grant: Pick<GrantState, 'grantedAt' | 'revokedAt'>) =>
  grant.grantedAt !== null && grant.revokedAt === null;

export type GrantStep = 'grant' | 'revoke' | 'cycle' | 'update' | null;

/**
 * The next thing a grant's workflow does to it. A grant brought to `granted` already reflects the
 * benefit as it is and the subscription's current cycle, so it needs no cycle or update after.
 */
export function nextGrantStep(grant: GrantState): GrantStep {
  if (grant.desired === 'granted' && !isHeld(grant)) return 'grant';
  if (grant.desired === 'revoked') return grant.revokedAt === null ? 'revoke' : null;
  if (grant.cyclesApplied < grant.cyclesRequested) return 'cycle';
  if (grant.updateRequested) return 'update';
  return null;
}

// License keys -----------------------------------------------------------------------------------

/** Polar's key: an uppercase UUID, after the benefit's prefix and a dash when it has one. */
export function licenseKeyFor(prefix: string | null, uuid: string): string {
  const body = uuid.toUpperCase();
  return prefix ? `${prefix.toUpperCase()}-${body}` : body;
}

export type LicenseKeyExpiry = { ttl: number; timeframe: 'year' | 'month' | 'day' };

/** Calendar arithmetic in UTC; a month from Jan 31 is the last day of February. */
export function licenseKeyExpiresAt(from: Date, expires: LicenseKeyExpiry | null): Date | null {
  if (!expires) return null;
  if (expires.timeframe === 'day') return new Date(from.getTime() + expires.ttl * 86_400_000);
  const months = expires.timeframe === 'year' ? expires.ttl * 12 : expires.ttl;
  const target = new Date(from);
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

// Meter credits ----------------------------------------------------------------------------------

export type MeterCredit = { units: number; rollover: boolean };

/**
 * A new cycle's credits after the meter's reset: what was left of the credits (when the benefit
 * rolls over; never more than was credited last cycle, so unused units do not pile up without
 * end), then the cycle's own units.
 */
export function cycleCredits(input: {
  units: number;
  rollover: boolean;
  balance: number;
  lastCredited: number;
}): MeterCredit[] {
  const carried = input.rollover ? Math.max(0, Math.min(Math.floor(input.balance), input.lastCredited)) : 0;
  return [
    ...(carried > 0 ? [{ units: carried, rollover: true }] : []),
    { units: input.units, rollover: false },
  ];
}

/** A revoke takes back what is left of the last credit, never more than the customer still has. */
export const creditTakenBack = (input: { balance: number; lastCredited: number }) =>
  Math.max(0, Math.min(Math.floor(input.balance), input.lastCredited));
