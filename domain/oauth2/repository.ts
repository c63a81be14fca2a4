import type { Db } from '../../infra/db.js';

export type ClientData = {
  clientName: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: string;
  grantTypes: string[];
  responseTypes: string[];
  scopes: string[];
  clientUri: string | null;
  logoUri: string | null;
  tosUri: string | null;
  policyUri: string | null;
  defaultSubType: string;
};

export function insertClient(
  db: Db,
  data: ClientData & {
    clientId: string;
    clientSecretHash: string | null;
    registrationTokenHash: string;
    userId: string;
  },
) {
  return db.oAuth2Client.create({ data });
}

export function findClientByClientId(db: Db, clientId: string) {
  return db.oAuth2Client.findUnique({ where: { clientId } });
}

export function updateClient(db: Db, id: string, data: ClientData) {
  return db.oAuth2Client.update({ where: { id }, data: { ...data, modifiedAt: new Date() } });
}

/** The operator's grant of a grant type the registration does not offer (the web grant). */
export async function addClientGrantType(db: Db, id: string, grantType: string): Promise<void> {
  await db.oAuth2Client.update({ where: { id }, data: { grantTypes: { push: grantType } } });
}

/** Its codes and tokens go with it (cascade): an app that is gone can no longer act. */
export async function deleteClient(db: Db, id: string): Promise<void> {
  await db.oAuth2Client.delete({ where: { id } });
}

export type ClientRow = NonNullable<Awaited<ReturnType<typeof findClientByClientId>>>;

export function insertAuthorizationCode(
  db: Db,
  data: {
    codeHash: string;
    clientId: string;
    userId: string;
    subType: string;
    organizationId: string | null;
    scopes: string[];
    redirectUri: string;
    codeChallenge: string | null;
    codeChallengeMethod: string | null;
    nonce: string | null;
    expiresAt: Date;
  },
) {
  return db.oAuth2AuthorizationCode.create({ data });
}

export function findAuthorizationCodeByHash(db: Db, codeHash: string) {
  return db.oAuth2AuthorizationCode.findUnique({ where: { codeHash } });
}

export type AuthorizationCodeRow = NonNullable<Awaited<ReturnType<typeof findAuthorizationCodeByHash>>>;

/** Claims the code for one exchange: false when another exchange already used it. */
export async function claimAuthorizationCode(db: Db, id: string, now: Date): Promise<boolean> {
  const { count } = await db.oAuth2AuthorizationCode.updateMany({
    where: { id, usedAt: null },
    data: { usedAt: now },
  });
  return count === 1;
}

export async function revokeTokensOfAuthorizationCode(db: Db, codeId: string, now: Date): Promise<void> {
  const tokens = await db.oAuth2Token.findMany({
    where: { authorizationCodeId: codeId },
    select: { familyId: true },
  });
  await revokeFamilies(
    db,
    tokens.map((token) => token.familyId),
    now,
  );
}

async function revokeFamilies(db: Db, familyIds: string[], now: Date): Promise<void> {
  if (familyIds.length === 0) return;
  await db.oAuth2Token.updateMany({
    where: { familyId: { in: familyIds }, accessRevokedAt: null },
    data: { accessRevokedAt: now },
  });
  await db.oAuth2Token.updateMany({
    where: { familyId: { in: familyIds }, refreshRevokedAt: null },
    data: { refreshRevokedAt: now },
  });
}

export async function revokeFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await revokeFamilies(db, [familyId], now);
}

export function insertToken(
  db: Db,
  data: {
    clientId: string;
    familyId: string;
    authorizationCodeId: string | null;
    subType: string;
    userId: string;
    organizationId: string | null;
    scopes: string[];
    accessTokenHash: string;
    refreshTokenHash: string | null;
    accessExpiresAt: Date;
    refreshExpiresAt: Date | null;
  },
) {
  return db.oAuth2Token.create({ data });
}

export function findTokenByRefreshHash(db: Db, refreshTokenHash: string) {
  return db.oAuth2Token.findUnique({ where: { refreshTokenHash } });
}

export function findTokenByAccessHash(db: Db, accessTokenHash: string) {
  return db.oAuth2Token.findUnique({ where: { accessTokenHash } });
}

export type TokenRow = NonNullable<Awaited<ReturnType<typeof findTokenByAccessHash>>>;

/** Claims a refresh token for one rotation: false when it was already rotated or revoked. */
export async function claimRefreshToken(db: Db, id: string, now: Date): Promise<boolean> {
  const { count } = await db.oAuth2Token.updateMany({
    where: { id, refreshRevokedAt: null },
    data: { refreshRevokedAt: now },
  });
  return count === 1;
}

export async function revokeAccessToken(db: Db, id: string, now: Date): Promise<void> {
  await db.oAuth2Token.updateMany({ where: { id, accessRevokedAt: null }, data: { accessRevokedAt: now } });
}

export type UsableOAuthToken = {
  id: string;
  clientId: string;
  subType: string;
  userId: string;
  organizationId: string | null;
  scopes: string[];
};

/**
 * Read by every request made with an OAuth token: plain SQL, as for organization access tokens
 * (docs/architecture.md, "plain SQL"). Expired and revoked tokens are not found.
 */
export async function findUsableAccessToken(
  db: Db,
  accessTokenHash: string,
  now: Date,
): Promise<UsableOAuthToken | null> {
  const { rows } = await db.sql.query<UsableOAuthToken>(
    `SELECT t.id, c.client_id AS "clientId", t.sub_type AS "subType", t.user_id AS "userId",
            t.organization_id AS "organizationId", t.scopes
     FROM oauth2_tokens t JOIN oauth2_clients c ON c.id = t.client_id
     WHERE t.access_token_hash = $1 AND t.access_revoked_at IS NULL AND t.access_expires_at > $2`,
    [accessTokenHash, now],
  );
  return rows[0] ?? null;
}

/**
 * The organizations a user belongs to, with their role in each, for the consent page (reads the
 * organizations' and members' rows, owned by `organizations` and `access`).
 */
export function listUserOrganizations(db: Db, userId: string) {
  return db.member.findMany({
    where: { userId },
    select: { role: true, organization: { select: { id: true, slug: true, name: true, logo: true } } },
    orderBy: { createdAt: 'asc' },
  });
}

/** Who a token speaks for, for userinfo and the consent page (reads `users`, owned by Better Auth). */
export function findUserIdentity(db: Db, userId: string) {
  return db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, emailVerified: true, name: true, image: true },
  });
}

export function findOrganizationIdentity(db: Db, organizationId: string) {
  return db.organization.findUnique({
    where: { id: organizationId },
    select: { id: true, slug: true, name: true },
  });
}

/**
 * A web session by its token, for the web grant (reads `sessions` and `users`, owned by Better
 * Auth). A signed-out session is deleted by Better Auth, so it is not found.
 */
export function findUserSessionByToken(db: Db, token: string) {
  return db.session.findUnique({
    where: { token },
    select: { userId: true, expiresAt: true, user: { select: { banned: true, banExpires: true } } },
  });
}
