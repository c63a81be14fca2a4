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
import {
  OAuthRefusal,
  type AccountPlatforms,
  type DiscordPlatform,
  type OAuthTokens,
} from '../customer-accounts/platforms.js';
import type { LinkedAccount } from '../customer-accounts/repository.js';
import { PLATFORM_NAMES } from '../customer-accounts/rules.js';
import type { AccountPlatform, GithubPermission } from '../customer-accounts/schemas.js';
import { displayKeyOf } from '../license-keys/rules.js';
import type { GrantRecord } from './repository.js';
import {
  creditTakenBack,
  cycleCredits,
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
  /** What the customer's other held grants of the benefit hold (their properties). */
  heldByOthers(): Promise<Prisma.JsonValue[]>;
  /** GitHub and Discord, and the customer's accounts there. */
  accounts: AccountAccess;
  at: Date;
};

export type AccountAccess = {
  platforms: AccountPlatforms;
  linked(platform: AccountPlatform): Promise<LinkedAccount | null>;
  /** The account's access token, renewed with `renew` first when about to expire; null: none. */
  accessToken(
    account: LinkedAccount,
    renew: (refreshToken: string) => Promise<OAuthTokens>,
  ): Promise<string | null>;
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

// GitHub and Discord ------------------------------------------------------------------------------

const isConfigured = <T>(platform: AccountPlatform, client: T | null): T => {
  // Thrown, not waited on: the seller's deployment lacks settings, and the grant shows it.
  if (!client) throw new Error(`${PLATFORM_NAMES[platform]} is not configured on this deployment.`);
  return client;
};

async function linkedAccountOrWait(ctx: StepContext, platform: AccountPlatform): Promise<LinkedAccount> {
  const account = await ctx.accounts.linked(platform);
  if (!account) {
    throw new GrantWaitsForCustomer(
      `The customer needs to connect their ${PLATFORM_NAMES[platform]} account.`,
      'account_not_linked',
    );
  }
  return account;
}

const othersHold = async (ctx: StepContext, holds: (properties: Record<string, unknown>) => boolean) =>
  (await ctx.heldByOthers()).some((properties) => holds((properties ?? {}) as Record<string, unknown>));

/** What a GitHub grant gave, kept on the grant so that a revoke takes back exactly that. */
type GitHubAccess = {
  account_id: string;
  account_username: string;
  repository_owner: string;
  repository_name: string;
  permission: GithubPermission;
};

type GitHubBenefit = { repository_owner: string; repository_name: string; permission: GithubPermission };

const githubAccessOf = (ctx: StepContext): GitHubAccess | null => {
  const held = ctx.grant.properties as Partial<GitHubAccess> | null;
  return held?.account_id && held.account_username && held.repository_owner && held.repository_name
    ? (held as GitHubAccess)
    : null;
};

const sameGitHubAccess =
  (a: Pick<GitHubAccess, 'account_id' | 'repository_owner' | 'repository_name'>) =>
  (b: Record<string, unknown>) =>
    b.account_id === a.account_id &&
    b.repository_owner === a.repository_owner &&
    b.repository_name === a.repository_name;

async function giveRepository(
  ctx: StepContext,
  account: { id: string; login: string },
): Promise<GrantProperties> {
  const github = isConfigured('github', ctx.accounts.platforms.github);
  const benefit = properties(ctx) as GitHubBenefit;
  await github.addCollaborator(
    { owner: benefit.repository_owner, name: benefit.repository_name },
    account.login,
    benefit.permission,
  );
  return {
    account_id: account.id,
    account_username: account.login,
    repository_owner: benefit.repository_owner,
    repository_name: benefit.repository_name,
    permission: benefit.permission,
  } satisfies GitHubAccess;
}

/** An invitation not yet accepted gives access once accepted: it is withdrawn too. */
async function takeRepository(ctx: StepContext, held: GitHubAccess): Promise<void> {
  const github = isConfigured('github', ctx.accounts.platforms.github);
  const repository = { owner: held.repository_owner, name: held.repository_name };
  await github.removeCollaborator(repository, held.account_username);
  await github.withdrawInvitations(repository, held.account_id);
}

const githubAccountOf = (account: LinkedAccount) => ({
  id: account.accountId,
  login: account.accountUsername ?? account.accountId,
});

/**
 * The customer's linked GitHub account becomes a collaborator of the benefit's repository, added
 * with the deployment's token (GitHub invites them; they accept on GitHub).
 */
const githubRepository: Strategy = {
  async grant(ctx) {
    return giveRepository(ctx, githubAccountOf(await linkedAccountOrWait(ctx, 'github')));
  },
  async revoke(ctx) {
    const held = githubAccessOf(ctx);
    if (held && !(await ctx.heldElsewhere())) await takeRepository(ctx, held);
    return ctx.grant.properties as GrantProperties;
  },
  cycle: unchanged,
  // The benefit's repository or permission changed, or the customer chose another account: the
  // new access is given first, so a failure in between never leaves them with none.
  async update(ctx) {
    const held = githubAccessOf(ctx);
    const linked = await ctx.accounts.linked('github');
    const account = linked
      ? githubAccountOf(linked)
      : held
        ? { id: held.account_id, login: held.account_username }
        : githubAccountOf(await linkedAccountOrWait(ctx, 'github'));
    const given = await giveRepository(ctx, account);
    const moved = held && !sameGitHubAccess(held)(given);
    if (moved && !(await othersHold(ctx, sameGitHubAccess(held)))) await takeRepository(ctx, held);
    return given;
  },
};

/** What a Discord grant gave: the account, the server and the role. */
type DiscordAccess = {
  account_id: string;
  account_username: string | null;
  guild_id: string;
  role_id: string;
};

type DiscordBenefit = { guild_id: string; role_id: string; kick_member?: boolean };

const discordAccessOf = (ctx: StepContext): DiscordAccess | null => {
  const held = ctx.grant.properties as Partial<DiscordAccess> | null;
  return held?.account_id && held.guild_id && held.role_id ? (held as DiscordAccess) : null;
};

const linkAgain = () =>
  new GrantWaitsForCustomer(
    'The customer needs to connect their Discord account again.',
    'account_not_linked',
  );

async function discordAccessToken(ctx: StepContext, discord: DiscordPlatform, account: LinkedAccount) {
  const token = await ctx.accounts
    .accessToken(account, (refreshToken) => discord.refreshTokens(refreshToken))
    .catch((error: unknown) => {
      // Discord no longer takes the refresh token: the customer removed Tollgate's access.
      throw error instanceof OAuthRefusal ? linkAgain() : error;
    });
  if (!token) throw linkAgain();
  return token;
}

/** Adds the customer to the server with the role (through their own token: `guilds.join`). */
async function joinGuild(ctx: StepContext, account: LinkedAccount): Promise<GrantProperties> {
  const discord = isConfigured('discord', ctx.accounts.platforms.discord);
  const benefit = properties(ctx) as DiscordBenefit;
  const accessToken = await discordAccessToken(ctx, discord, account);
  const joined = await discord
    .addMember({ guildId: benefit.guild_id, userId: account.accountId, accessToken, roleId: benefit.role_id })
    .catch((error: unknown) => {
      // The customer withdrew Tollgate's access on Discord.
      throw error instanceof OAuthRefusal ? linkAgain() : error;
    });
  // Discord ignores the roles of someone already in the server.
  if (joined === 'member') await discord.addRole(benefit.guild_id, account.accountId, benefit.role_id);
  return {
    account_id: account.accountId,
    account_username: account.accountUsername,
    guild_id: benefit.guild_id,
    role_id: benefit.role_id,
  } satisfies DiscordAccess;
}

/** Out of the server when the benefit says so (`kick_member`), else only the role is taken. */
async function leaveGuild(ctx: StepContext, held: DiscordAccess): Promise<void> {
  const discord = isConfigured('discord', ctx.accounts.platforms.discord);
  const { kick_member: kick } = properties(ctx) as DiscordBenefit;
  if (kick) await discord.removeMember(held.guild_id, held.account_id);
  else await discord.removeRole(held.guild_id, held.account_id, held.role_id);
}

const sameDiscordAccess = (a: DiscordAccess) => (b: Record<string, unknown>) =>
  b.account_id === a.account_id && b.guild_id === a.guild_id && b.role_id === a.role_id;

const discord: Strategy = {
  async grant(ctx) {
    return joinGuild(ctx, await linkedAccountOrWait(ctx, 'discord'));
  },
  async revoke(ctx) {
    const held = discordAccessOf(ctx);
    if (held && !(await ctx.heldElsewhere())) await leaveGuild(ctx, held);
    return ctx.grant.properties as GrantProperties;
  },
  cycle: unchanged,
  async update(ctx) {
    const held = discordAccessOf(ctx);
    const benefit = properties(ctx) as DiscordBenefit;
    const linked = await ctx.accounts.linked('discord');
    // Another role in the same server needs no token of the customer's: the bot moves it.
    if (held && held.guild_id === benefit.guild_id && (!linked || linked.accountId === held.account_id)) {
      if (held.role_id === benefit.role_id) return ctx.grant.properties as GrantProperties;
      const client = isConfigured('discord', ctx.accounts.platforms.discord);
      await client.addRole(held.guild_id, held.account_id, benefit.role_id);
      if (!(await othersHold(ctx, sameDiscordAccess(held)))) {
        await client.removeRole(held.guild_id, held.account_id, held.role_id);
      }
      return { ...held, role_id: benefit.role_id } satisfies DiscordAccess;
    }
    const given = await joinGuild(ctx, linked ?? (await linkedAccountOrWait(ctx, 'discord')));
    if (held && !(await othersHold(ctx, sameDiscordAccess(held)))) await leaveGuild(ctx, held);
    return given;
  },
};

export const STRATEGIES: Record<BenefitType, Strategy> = {
  custom,
  license_keys: licenseKeys,
  downloadables,
  meter_credit: meterCredit,
  github_repository: githubRepository,
  discord,
};
