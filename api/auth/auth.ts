import { betterAuth, type SocialProviders } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { admin, jwt, organization, twoFactor, username } from 'better-auth/plugins';
import type { SocialProvider, SocialProviderCredentials } from '../../config/config.js';
import type { Db } from '../../infra/db.js';
import { rejectMalformedIds, specErrorCatalogue } from './catalogue.js';
import {
  organizationsOnBehalfOfOthers,
  sellerProfileFields,
  validateSellerProfile,
  type OrganizationCreator,
} from './organizations.js';
import { explainUntrustedOrigins } from './origins.js';
import { setPasswordEndpoint, type PasswordSetter } from './passwords.js';
import { signInThrottle } from './sign-in-throttle.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/users/rules.js';
import { organizationClientForAuth } from '../../domain/organizations/service.js';
import type { Logger } from '../../infra/logger.js';
import type { Mailer } from '../../domain/emails/mailer.js';
import {
  notifyInvitationClosed,
  requestInvitationEmail,
  type InvitationWorkflows,
} from '../../domain/invitations/service.js';
import {
  changeEmailConfirmation,
  deleteAccountEmail,
  passwordResetEmail,
  verificationEmail,
} from '../../domain/emails/rules.js';

export type AuthSettings = {
  publicUrl: string;
  secret: string;
  /** Trusted beside `publicUrl`'s origin: `trustedOriginsFor` (api/auth/origins.ts). */
  trustedOrigins: string[];
  /** Off only in tests that sign in many times from one address; on everywhere else. */
  rateLimitEnabled: boolean;
  logger: Logger;
  mailer: Mailer;
  /** Invitations live in Temporal workflows (`invitation:<id>`); Better Auth's hooks start and signal them. */
  invitations: InvitationWorkflows;
  organizations?: { limit?: number; allowCreation?: boolean };
  requireEmailVerification?: boolean;
  socialProviders?: Partial<Record<SocialProvider, SocialProviderCredentials>>;
};

/** Set by the Express app from `req.ip`; see `passClientIp` in api/app.ts. */
export const CLIENT_IP_HEADER = 'x-tollgate-client-ip';

// Spec §9 constants.
const INVITATION_EXPIRY_SECONDS = 2 * 24 * 60 * 60;
const TRUST_DEVICE_SECONDS = 30 * 24 * 60 * 60;
const PASSWORD_RESET_TOKEN_SECONDS = 60 * 60;
const DELETE_ACCOUNT_TOKEN_SECONDS = 24 * 60 * 60;
const MEMBERSHIP_LIMIT = 100;

/** Better Auth with the plugins of the identity issue, on Tollgate's PostgreSQL. */
export function createAuth(db: Db, settings: AuthSettings) {
  const authLog = settings.logger.child({ component: 'better-auth' });
  const { mailer } = settings;
  // The on-behalf plugin calls back into this instance, which exists only once betterAuth() returns.
  const self: { auth?: OrganizationCreator & PasswordSetter } = {};
  const auth = betterAuth({
    appName: 'Tollgate',
    // Better Auth's own messages join the API's structured log instead of the console. At 'info'
    // its router stops printing every 4xx answer to the console (it does so for error/warn/debug).
    logger: {
      level: 'info',
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
    database: prismaAdapter(organizationClientForAuth(db), { provider: 'postgresql' }),
    advanced: {
      // PostgreSQL generates the uuid of every row (ids are UUIDs on the wire and in the schema).
      database: { generateId: 'uuid' },
      cookiePrefix: 'tollgate',
      // Better Auth skips origin and callback-URL checks when NODE_ENV is test; tests run what production runs.
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    rateLimit: { enabled: settings.rateLimitEnabled, storage: 'database', window: 60, max: 100 },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      requireEmailVerification: settings.requireEmailVerification ?? false,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_TOKEN_SECONDS,
      sendResetPassword: async ({ user, url, token }) => {
        await mailer.send({
          to: user.email,
          idempotencyKey: `password-reset:${token}`,
          ...passwordResetEmail({ name: user.name, url }),
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url, token }) => {
        await mailer.send({
          to: user.email,
          idempotencyKey: `verify-email:${token}`,
          ...verificationEmail({ name: user.name, url }),
        });
      },
    },
    socialProviders: (settings.socialProviders ?? {}) as SocialProviders,
    user: {
      deleteUser: {
        enabled: true,
        deleteTokenExpiresIn: DELETE_ACCOUNT_TOKEN_SECONDS,
        sendDeleteAccountVerification: async ({ user, url, token }) => {
          await mailer.send({
            to: user.email,
            idempotencyKey: `delete-account:${token}`,
            ...deleteAccountEmail({ name: user.name, url }),
          });
        },
      },
      changeEmail: {
        enabled: true,
        sendChangeEmailConfirmation: async ({ user, newEmail, url, token }) => {
          await mailer.send({
            to: user.email,
            idempotencyKey: `change-email:${token}`,
            ...changeEmailConfirmation({ name: user.name, newEmail, url }),
          });
        },
      },
    },
    plugins: [
      organization({
        teams: { enabled: true, defaultTeam: { enabled: true }, allowRemovingAllTeams: false },
        membershipLimit: MEMBERSHIP_LIMIT,
        invitationExpiresIn: INVITATION_EXPIRY_SECONDS,
        creatorRole: 'owner',
        // Counts every organization the user belongs to, not only those they created (Better Auth 1.7).
        organizationLimit: settings.organizations?.limit,
        allowUserToCreateOrganization: settings.organizations?.allowCreation ?? true,
        cancelPendingInvitationsOnReInvite: true,
        schema: { organization: { additionalFields: sellerProfileFields } },
        // Called for a new invitation and for every re-send; the workflow sends the email.
        sendInvitationEmail: async ({ id }) => {
          await requestInvitationEmail(settings.invitations, id);
        },
        organizationHooks: {
          beforeCreateOrganization: async ({ organization }) => validateSellerProfile(organization),
          beforeUpdateOrganization: async ({ organization }) => validateSellerProfile(organization),
          afterAcceptInvitation: async ({ invitation }) =>
            notifyInvitationClosed(settings.invitations, invitation.id),
          afterRejectInvitation: async ({ invitation }) =>
            notifyInvitationClosed(settings.invitations, invitation.id),
          afterCancelInvitation: async ({ invitation }) =>
            notifyInvitationClosed(settings.invitations, invitation.id),
        },
      }),
      username({ minUsernameLength: 3, maxUsernameLength: 30 }),
      twoFactor({ issuer: 'Tollgate', trustDeviceMaxAge: TRUST_DEVICE_SECONDS }),
      admin(),
      jwt(),
      specErrorCatalogue(),
      explainUntrustedOrigins(settings.publicUrl),
      organizationsOnBehalfOfOthers(() => self.auth!),
      setPasswordEndpoint(() => self.auth!),
      signInThrottle(db),
    ],
    hooks: { before: rejectMalformedIds },
  });
  self.auth = auth;
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
