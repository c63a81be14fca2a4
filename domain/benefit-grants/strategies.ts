// What granting, revoking, cycling and updating does for each benefit type. Every step runs in
// the grant's transaction: a crash before the commit leaves nothing behind, so a retried step
// never makes a second key, file or credit.

import { randomUUID } from 'node:crypto';
import type { SqlClient } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { currentMeterBalance } from '../customer-meters/service.js';
import { grantedFileIds, revokeAllFiles, setGrantedFiles } from '../downloadables/repository.js';
import {
  insertLicenseKey,
  licenseKeyOfGrant,
  regrantLicenseKey,
  revokeLicenseKey,
  setLicenseKeyLimits,
} from '../license-keys/repository.js';
import { insertEvents } from '../usage/repository.js';
import { SYSTEM_EVENT_NAMES } from '../usage/rules.js';
import type { BenefitType } from '../benefits/schemas.js';
import type { GrantRecord } from './repository.js';
import {
  creditTakenBack,
  cycleCredits,
  displayKeyOf,
  licenseKeyExpiresAt,
  licenseKeyFor,
  type LicenseKeyExpiry,
} from './rules.js';

export type GrantProperties = Record<string, Prisma.JsonValue>;

export type StepContext = {
  sql: SqlClient;
  grant: GrantRecord;
  benefit: { id: string; organizationId: string; type: string; properties: Prisma.JsonValue };
  customer: { id: string; organizationId: string; externalId: string | null };
  /** Whether the customer holds the benefit through another grant too. */
  heldElsewhere(): Promise<boolean>;
  at: Date;
};

/** A grant that cannot proceed until the customer acts (links an account): not retried, shown. */
export class GrantWaitsForCustomer extends Error {
  constructor(
    message: string,
    readonly type: string,
  ) {
    super(message);
  }
}

type Strategy = {
  grant(ctx: StepContext): Promise<GrantProperties>;
  revoke(ctx: StepContext): Promise<GrantProperties>;
  cycle(ctx: StepContext): Promise<GrantProperties>;
  update(ctx: StepContext): Promise<GrantProperties>;
};

const properties = (ctx: StepContext) => ctx.benefit.properties as Record<string, unknown>;
const unchanged = async (ctx: StepContext) => ctx.grant.properties as GrantProperties;

const custom: Strategy = {
  grant: async () => ({}),
  revoke: unchanged,
  cycle: unchanged,
  update: unchanged,
};

const licenseKeys: Strategy = {
  async grant(ctx) {
    const existing = await licenseKeyOfGrant(ctx.sql, ctx.grant.id);
    if (existing) {
      await regrantLicenseKey(ctx.sql, existing.id);
      return { license_key_id: existing.id, display_key: displayKeyOf(existing.key) };
    }
    const benefit = properties(ctx) as {
      prefix: string | null;
      expires: LicenseKeyExpiry | null;
      activations: { limit: number } | null;
      limit_usage: number | null;
    };
    const key = await insertLicenseKey(ctx.sql, {
      organizationId: ctx.benefit.organizationId,
      customerId: ctx.customer.id,
      benefitId: ctx.benefit.id,
      grantId: ctx.grant.id,
      key: licenseKeyFor(benefit.prefix, randomUUID()),
      limitActivations: benefit.activations?.limit ?? null,
      limitUsage: benefit.limit_usage ?? null,
      expiresAt: licenseKeyExpiresAt(ctx.at, benefit.expires),
    });
    return { license_key_id: key.id, display_key: displayKeyOf(key.key) };
  },
  // Each key belongs to one grant: it goes with it, whatever else the customer holds.
  async revoke(ctx) {
    const key = await licenseKeyOfGrant(ctx.sql, ctx.grant.id);
    if (key) await revokeLicenseKey(ctx.sql, key.id);
    return ctx.grant.properties as GrantProperties;
  },
  cycle: unchanged,
  // New limits apply to the key; a revoked or disabled key stays so (Polar revived them: #5389).
  async update(ctx) {
    const key = await licenseKeyOfGrant(ctx.sql, ctx.grant.id);
    const benefit = properties(ctx) as { activations: { limit: number } | null; limit_usage: number | null };
    if (key) {
      await setLicenseKeyLimits(ctx.sql, key.id, {
        limitActivations: benefit.activations?.limit ?? null,
        limitUsage: benefit.limit_usage ?? null,
      });
    }
    return ctx.grant.properties as GrantProperties;
  },
};

const holder = (ctx: StepContext) => ({
  organizationId: ctx.benefit.organizationId,
  customerId: ctx.customer.id,
  benefitId: ctx.benefit.id,
});

/**
 * The benefit's files the customer should hold: those not archived, and those archived that they
 * already had (an archived file is hidden from new buyers only).
 */
async function filesToHold(ctx: StepContext): Promise<string[]> {
  const benefit = properties(ctx) as { files: string[]; archived: Record<string, boolean> };
  const held = new Set(await grantedFileIds(ctx.sql, holder(ctx)));
  return benefit.files.filter((file) => !benefit.archived[file] || held.has(file));
}

const downloadables: Strategy = {
  async grant(ctx) {
    return { files: await setGrantedFiles(ctx.sql, holder(ctx), await filesToHold(ctx)) };
  },
  async revoke(ctx) {
    if (!(await ctx.heldElsewhere())) await revokeAllFiles(ctx.sql, holder(ctx));
    return ctx.grant.properties as GrantProperties;
  },
  cycle: unchanged,
  async update(ctx) {
    return { files: await setGrantedFiles(ctx.sql, holder(ctx), await filesToHold(ctx)) };
  },
};

type MeterCreditProperties = { units: number; rollover: boolean; meter_id: string };

async function credit(ctx: StepContext, meterId: string, units: number, rollover: boolean, at: Date) {
  await insertEvents(ctx.sql, [
    {
      organizationId: ctx.benefit.organizationId,
      name: SYSTEM_EVENT_NAMES.meterCredited,
      source: 'system',
      timestamp: at,
      customerId: ctx.customer.id,
      externalCustomerId: ctx.customer.externalId,
      externalId: null,
      metadata: { meter_id: meterId, units, rollover },
    },
  ]);
}

const lastCredited = (ctx: StepContext) =>
  Number(ctx.grant.properties && (ctx.grant.properties as Record<string, unknown>).last_credited_units) || 0;

const meterCredit: Strategy = {
  async grant(ctx) {
    const benefit = properties(ctx) as MeterCreditProperties;
    await credit(ctx, benefit.meter_id, benefit.units, false, ctx.at);
    return {
      last_credited_meter_id: benefit.meter_id,
      last_credited_units: benefit.units,
      last_credited_at: ctx.at.toISOString(),
    };
  },
  async revoke(ctx) {
    const meterId = (ctx.grant.properties as { last_credited_meter_id?: string }).last_credited_meter_id;
    if (!meterId || (await ctx.heldElsewhere())) return ctx.grant.properties as GrantProperties;
    const balance = await currentMeterBalance(ctx.sql, ctx.customer, meterId);
    const units = creditTakenBack({ balance, lastCredited: lastCredited(ctx) });
    if (units > 0) await credit(ctx, meterId, -units, false, ctx.at);
    return ctx.grant.properties as GrantProperties;
  },
  // At the subscription's new period: the meter starts again, with the rollover and the units.
  async cycle(ctx) {
    const benefit = properties(ctx) as MeterCreditProperties;
    const at = ctx.grant.cycledAt ?? ctx.at;
    const balance = await currentMeterBalance(ctx.sql, ctx.customer, benefit.meter_id);
    await insertEvents(ctx.sql, [
      {
        organizationId: ctx.benefit.organizationId,
        name: SYSTEM_EVENT_NAMES.meterReset,
        source: 'system',
        timestamp: at,
        customerId: ctx.customer.id,
        externalCustomerId: ctx.customer.externalId,
        externalId: null,
        metadata: { meter_id: benefit.meter_id },
      },
    ]);
    const credits = cycleCredits({
      units: benefit.units,
      rollover: benefit.rollover,
      balance,
      lastCredited: lastCredited(ctx),
    });
    for (const next of credits) await credit(ctx, benefit.meter_id, next.units, next.rollover, at);
    return {
      last_credited_meter_id: benefit.meter_id,
      last_credited_units: credits.reduce((sum, next) => sum + next.units, 0),
      last_credited_at: at.toISOString(),
    };
  },
  // A new amount is credited from the next cycle on; what was credited stays (#11427).
  update: unchanged,
};

/**
 * GitHub and Discord grant through the customer's linked account. Linking comes with the customer
 * portal; until the customer links one, the grant waits and says so.
 */
const linkedAccount = (service: 'GitHub' | 'Discord'): Strategy => ({
  async grant() {
    throw new GrantWaitsForCustomer(
      `The customer needs to connect their ${service} account.`,
      'account_not_linked',
    );
  },
  revoke: unchanged,
  cycle: unchanged,
  update: unchanged,
});

export const STRATEGIES: Record<BenefitType, Strategy> = {
  custom,
  license_keys: licenseKeys,
  downloadables,
  meter_credit: meterCredit,
  github_repository: linkedAccount('GitHub'),
  discord: linkedAccount('Discord'),
};
