import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { admin, jwt, organization, twoFactor, username } from 'better-auth/plugins';
import type { Db } from '../../infra/db.js';
import type { Logger } from '../../infra/logger.js';

export type AuthSettings = {
  publicUrl: string;
  secret: string;
  trustedOrigins: string[];
  /** Off only in tests that sign in many times from one address; on everywhere else. */
  rateLimitEnabled: boolean;
  logger: Logger;
};

// Spec §9 constants.
const INVITATION_EXPIRY_SECONDS = 2 * 24 * 60 * 60;
const TRUST_DEVICE_SECONDS = 30 * 24 * 60 * 60;
const PASSWORD_RESET_TOKEN_SECONDS = 60 * 60;
const DELETE_ACCOUNT_TOKEN_SECONDS = 24 * 60 * 60;
const MEMBERSHIP_LIMIT = 100;

/** Better Auth with the plugins of the identity issue, on Tollgate's PostgreSQL. */
export function createAuth(db: Db, settings: AuthSettings) {
  const authLog = settings.logger.child({ component: 'better-auth' });
  return betterAuth({
    appName: 'Tollgate',
    // Better Auth's own messages join the API's structured log instead of the console.
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        const details = args.length > 0 ? { details: args } : {};
        if (level === 'error') authLog.error(details, message);
        else if (level === 'warn') authLog.warn(details, message);
        else authLog.info(details, message);
      },
    },
    baseURL: settings.publicUrl,
    basePath: '/api/auth',
    secret: settings.secret,
    trustedOrigins: settings.trustedOrigins,
    database: prismaAdapter(db, { provider: 'postgresql' }),
    advanced: {
      // PostgreSQL generates the uuid of every row (ids are UUIDs on the wire and in the schema).
      database: { generateId: 'uuid' },
      cookiePrefix: 'tollgate',
    },
    rateLimit: { enabled: settings.rateLimitEnabled, storage: 'database', window: 60, max: 100 },
    emailAndPassword: {
      enabled: true,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_TOKEN_SECONDS,
    },
    user: {
      deleteUser: { enabled: true, deleteTokenExpiresIn: DELETE_ACCOUNT_TOKEN_SECONDS },
      changeEmail: { enabled: true },
    },
    plugins: [
      organization({
        teams: { enabled: true, defaultTeam: { enabled: true }, allowRemovingAllTeams: false },
        membershipLimit: MEMBERSHIP_LIMIT,
        invitationExpiresIn: INVITATION_EXPIRY_SECONDS,
        creatorRole: 'owner',
        cancelPendingInvitationsOnReInvite: true,
      }),
      username({ minUsernameLength: 3, maxUsernameLength: 30 }),
      twoFactor({ issuer: 'Tollgate', trustDeviceMaxAge: TRUST_DEVICE_SECONDS }),
      admin(),
      jwt(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
