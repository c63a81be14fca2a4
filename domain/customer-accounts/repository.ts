import type { Db, SqlClient } from '../../infra/db.js';
import { returningList } from '../../infra/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { OAuthTokens } from './platforms.js';
import type { AccountPlatform } from './schemas.js';

type Client = Db | Prisma.TransactionClient;

export type LinkedAccount = Prisma.CustomerOAuthAccountGetPayload<object>;

const accountFields = Prisma.CustomerOAuthAccountScalarFieldEnum;

export function linkedAccountsOf(db: Client, customerId: string): Promise<LinkedAccount[]> {
  return db.customerOAuthAccount.findMany({ where: { customerId }, orderBy: { platform: 'asc' } });
}

export function findLinkedAccount(
  db: Client,
  customerId: string,
  platform: AccountPlatform,
): Promise<LinkedAccount | null> {
  return db.customerOAuthAccount.findUnique({ where: { customerId_platform: { customerId, platform } } });
}

/** The same, inside a grant step's transaction (plain SQL, as the step's other reads). */
export async function findLinkedAccountSql(
  sql: SqlClient,
  customerId: string,
  platform: AccountPlatform,
): Promise<LinkedAccount | null> {
  const { rows } = await sql.query<LinkedAccount>(
    `SELECT ${returningList(accountFields)} FROM customer_oauth_accounts
     WHERE customer_id = $1::uuid AND platform = $2`,
    [customerId, platform],
  );
  return rows[0] ?? null;
}

/** One account per customer and platform: linking another replaces it. */
export function saveLinkedAccount(
  tx: Client,
  data: {
    organizationId: string;
    customerId: string;
    platform: AccountPlatform;
    accountId: string;
    accountUsername: string | null;
    tokens: OAuthTokens | null;
  },
): Promise<LinkedAccount> {
  const fields = {
    accountId: data.accountId,
    accountUsername: data.accountUsername,
    accessToken: data.tokens?.accessToken ?? null,
    refreshToken: data.tokens?.refreshToken ?? null,
    expiresAt: data.tokens?.expiresAt ?? null,
  };
  return tx.customerOAuthAccount.upsert({
    where: { customerId_platform: { customerId: data.customerId, platform: data.platform } },
    create: {
      organizationId: data.organizationId,
      customerId: data.customerId,
      platform: data.platform,
      ...fields,
    },
    update: { ...fields, modifiedAt: new Date() },
  });
}

/** The account, locked for the caller's transaction (one renewal of its tokens at a time). */
export async function lockLinkedAccount(sql: SqlClient, id: string): Promise<LinkedAccount | null> {
  const { rows } = await sql.query<LinkedAccount>(
    `SELECT ${returningList(accountFields)} FROM customer_oauth_accounts WHERE id = $1::uuid FOR UPDATE`,
    [id],
  );
  return rows[0] ?? null;
}

export async function saveAccountTokens(sql: SqlClient, id: string, tokens: OAuthTokens): Promise<void> {
  await sql.query(
    `UPDATE customer_oauth_accounts SET access_token = $2, refresh_token = coalesce($3, refresh_token), expires_at = $4, modified_at = now()
     WHERE id = $1::uuid`,
    [id, tokens.accessToken, tokens.refreshToken, tokens.expiresAt],
  );
}

export async function deleteLinkedAccount(
  db: Client,
  customerId: string,
  platform: AccountPlatform,
): Promise<boolean> {
  const { count } = await db.customerOAuthAccount.deleteMany({ where: { customerId, platform } });
  return count > 0;
}
