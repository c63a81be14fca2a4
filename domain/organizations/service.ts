import type { Db } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import {
  getsNewOrderEmail,
  hasAnyRole,
  NEW_ORDER_EMAIL_ROLES,
  ORDER_READERS,
  ORGANIZATION_MANAGERS,
  type Caller,
} from '../access/rules.js';
import { findMemberNotificationChoice, setMemberNewOrderEmail } from '../access/repository.js';
import { accessibleOrganizationIds, organizationAccess } from '../access/service.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import type { PageQuery } from '../platform/schemas.js';
import {
  findOrganizationById,
  findOrganizationBySlug,
  listOrganizations as queryOrganizations,
  updateOrganizationProfile,
  updateOrganizationRow,
} from './repository.js';
import type {
  NotificationSettings,
  NotificationSettingsUpdate,
  Organization,
  OrganizationCreate,
  OrganizationUpdate,
} from './schemas.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { knownTimeZones } from '../platform/repository.js';
import { isKnownTimeZone } from '../dates/rules.js';
import { organizationView } from './views.js';

/** Seller-profile columns from a create/update body; absent and null fields leave columns alone. */
function profileData(input: OrganizationUpdate, now: Date): Prisma.OrganizationUpdateInput {
  const data: Prisma.OrganizationUpdateInput = {};
  if (input.name) data.name = input.name;
  if (input.avatar_url !== undefined) data.logo = input.avatar_url;
  if (input.email !== undefined) data.email = input.email;
  if (input.website !== undefined) data.website = input.website;
  if (input.address !== undefined) data.address = input.address ?? Prisma.DbNull;
  if (input.time_zone !== undefined) data.timeZone = input.time_zone;
  if (input.socials) data.socials = input.socials;
  if (input.details) {
    data.details = input.details;
    data.detailsSubmittedAt = now;
  }
  if (input.feature_settings?.issue_funding_enabled !== undefined) {
    data.issueFundingEnabled = input.feature_settings.issue_funding_enabled;
  }
  if (input.feature_settings?.usage_based_billing_enabled !== undefined) {
    data.usageBasedBillingEnabled = input.feature_settings.usage_based_billing_enabled;
  }
  if (input.feature_settings?.seat_based_pricing_enabled !== undefined) {
    data.seatBasedPricingEnabled = input.feature_settings.seat_based_pricing_enabled;
  }
  if (input.feature_settings?.reset_proration_behavior_enabled !== undefined) {
    data.resetProrationBehaviorEnabled = input.feature_settings.reset_proration_behavior_enabled;
  }
  if (input.subscription_settings) {
    data.allowMultipleSubscriptions = input.subscription_settings.allow_multiple_subscriptions;
    data.allowCustomerUpdates = input.subscription_settings.allow_customer_updates;
    data.prorationBehavior = input.subscription_settings.proration_behavior;
    if (input.subscription_settings.prevent_trial_abuse !== undefined) {
      data.preventTrialAbuse = input.subscription_settings.prevent_trial_abuse;
    }
  }
  if (input.dispute_settings?.auto_accept_below_amount !== undefined) {
    data.disputeAutoAcceptBelowAmount = input.dispute_settings.auto_accept_below_amount;
  }
  if (input.dispute_settings?.revoke_benefits !== undefined) {
    data.disputeRevokeBenefits = input.dispute_settings.revoke_benefits;
  }
  // The portal's plan changes are the subscription setting `allow_customer_updates`.
  const updatePlan = input.customer_portal_settings?.subscription?.update_plan;
  if (updatePlan !== undefined) data.allowCustomerUpdates = updatePlan;
  const pause = input.customer_portal_settings?.subscription?.pause;
  if (pause !== undefined) data.customerPortalPause = pause;
  const updateSeats = input.customer_portal_settings?.subscription?.update_seats;
  if (updateSeats != null) data.customerPortalUpdateSeats = updateSeats;
  return data;
}

/**
 * A time zone both PostgreSQL (the metrics cut the organization's days by it) and Intl (emails,
 * invoices and pages write its dates) know: an IANA name, not one of PostgreSQL's `posix/…` aliases.
 */
async function checkTimeZone(db: Db, input: OrganizationUpdate): Promise<void> {
  const zone = input.time_zone;
  if (zone === undefined || (isKnownTimeZone(zone) && (await knownTimeZones(db.sql)).has(zone))) return;
  throw new InvalidFieldError(
    ['body', 'time_zone'],
    `Unknown time zone: ${input.time_zone}. Choose an IANA name such as Europe/Berlin.`,
  );
}

const SORT_COLUMNS = { created_at: 'createdAt', slug: 'slug', name: 'name' } as const;

export async function listOrganizations(
  db: Db,
  caller: Caller,
  query: PageQuery & { slug?: string; sorting?: string[] },
) {
  const ids = await accessibleOrganizationIds(db, caller);
  const order = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['created_at']).map(
    ({ field, direction }) => ({
      [SORT_COLUMNS[field]]: direction,
    }),
  );
  const [rows, total] = await queryOrganizations(db, { ids, slug: query.slug }, order, pageToSkipTake(query));
  return paginated(rows.map(organizationView), total, query);
}

export async function getOrganization(db: Db, caller: Caller, id: string): Promise<Organization> {
  if ((await organizationAccess(db, caller, id, ORGANIZATION_MANAGERS)) === 'none') {
    throw new AppError('ResourceNotFound', 'Organization not found');
  }
  const row = await findOrganizationById(db.sql, id);
  if (!row) throw new AppError('ResourceNotFound', 'Organization not found');
  return organizationView(row);
}

export async function updateOrganization(
  db: Db,
  caller: Caller,
  id: string,
  input: OrganizationUpdate,
): Promise<Organization> {
  const access = await organizationAccess(db, caller, id, ORGANIZATION_MANAGERS);
  if (access === 'none') throw new AppError('ResourceNotFound', 'Organization not found');
  if (access === 'read') {
    throw new AppError('NotPermitted', 'Only owners and admins can update the organization.');
  }
  await checkTimeZone(db, input);
  const now = new Date();
  return db.$transaction(async (tx) => {
    const row = await updateOrganizationProfile(tx, id, profileData(input, now));
    // A default every plan change would refuse: `reset` needs the feature turned on (rolled back).
    if (row.prorationBehavior === 'reset' && !row.resetProrationBehaviorEnabled) {
      throw new InvalidFieldError(
        ['body', 'subscription_settings', 'proration_behavior'],
        "The 'reset' proration behavior is not enabled for this organization: turn on feature_settings.reset_proration_behavior_enabled first.",
      );
    }
    const organization = organizationView(row);
    await recordEvent(tx, { organizationId: id, type: 'organization.updated', data: organization, at: now });
    return organization;
  });
}

/**
 * Better Auth's adapter assumes no JSON columns and hands JSON fields over as strings; `socials` is
 * jsonb, so it is parsed back before it reaches the column.
 */
function withJsonSocials<T extends { data?: unknown }>(args: T): T {
  const data = args.data as Record<string, unknown> | undefined;
  if (typeof data?.socials !== 'string') return args;
  return { ...args, data: { ...data, socials: JSON.parse(data.socials) as unknown } };
}

/**
 * The Prisma client Better Auth writes organizations through (`/api/auth/organization/*`). Each of
 * its organization updates commits together with its `organization.updated` event, as the `/v1`
 * update does.
 */
export function organizationClientForAuth(db: Db) {
  return db.$extends({
    query: {
      organization: {
        create: ({ args, query }) => query(withJsonSocials(args)),
        update: ({ args }) =>
          db.$transaction(async (tx) => {
            const row = await updateOrganizationRow(tx, withJsonSocials(args));
            await recordEvent(tx, {
              organizationId: row.id,
              type: 'organization.updated',
              data: organizationView(row),
              at: row.modifiedAt ?? new Date(),
            });
            return row;
          }),
      },
    },
  });
}

/**
 * Better Auth's organization creation (owner membership, default team, limits), injected so that
 * the seller-profile API and /api/auth/organization/create share one path.
 */
export type CreateOrganizationForUser = (input: {
  name: string;
  slug: string;
  userId: string;
}) => Promise<{ id: string }>;

export async function createOrganization(
  db: Db,
  caller: Caller,
  input: OrganizationCreate,
  createForUser: CreateOrganizationForUser,
): Promise<Organization> {
  // As in Polar, organizations are created by users: an organization access token works inside
  // its own organization, and could not even read one it had created elsewhere.
  if (caller.kind !== 'user_session') {
    throw new AppError('NotPermitted', 'Organizations are created by signed-in users, not access tokens.');
  }
  const ownerId = caller.userId;
  await checkTimeZone(db, input);
  if (await findOrganizationBySlug(db, input.slug)) {
    throw new InvalidFieldError(['body', 'slug'], 'An organization with this slug already exists.');
  }
  const { id } = await createForUser({ name: input.name, slug: input.slug, userId: ownerId });
  const row = await updateOrganizationProfile(db, id, profileData(input, new Date()));
  return organizationView(row);
}

/**
 * The signed-in caller's own membership, for their notification settings: a token has no member
 * behind it (403), and an organization the caller is not a member of is not found (404).
 */
async function ownMembership(db: Db, caller: Caller, organizationId: string) {
  if (caller.kind !== 'user_session') {
    throw new AppError(
      'NotPermitted',
      'Notification settings belong to a signed-in member; an access token has none.',
    );
  }
  const member = await findMemberNotificationChoice(db, organizationId, caller.userId);
  if (!member) throw new AppError('ResourceNotFound', 'Organization not found');
  return member;
}

const notificationSettingsOf = (member: { role: string; newOrderEmail: boolean | null }) => ({
  new_order_email: getsNewOrderEmail(member),
  new_order_email_default: hasAnyRole(member.role, NEW_ORDER_EMAIL_ROLES),
});

export async function getNotificationSettings(
  db: Db,
  caller: Caller,
  organizationId: string,
): Promise<NotificationSettings> {
  return notificationSettingsOf(await ownMembership(db, caller, organizationId));
}

/** Changes the caller's own choice only: the operation names no member, so no one sets another's. */
export async function updateNotificationSettings(
  db: Db,
  caller: Caller,
  organizationId: string,
  input: NotificationSettingsUpdate,
): Promise<NotificationSettings> {
  const member = await ownMembership(db, caller, organizationId);
  if (input.new_order_email === true && !hasAnyRole(member.role, ORDER_READERS)) {
    throw new AppError('NotPermitted', 'Your role may not see orders, so it gets no "New order" email.');
  }
  return notificationSettingsOf(await setMemberNewOrderEmail(db, member.id, input.new_order_email));
}
