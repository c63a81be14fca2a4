import { isAPIError } from 'better-auth/api';
import {
  notificationSettingsSchema,
  notificationSettingsUpdateSchema,
  organizationCreateSchema,
  organizationIdParamsSchema,
  organizationSchema,
  organizationSortFields,
  organizationUpdateSchema,
} from '../../domain/organizations/schemas.js';
import {
  createOrganization,
  getNotificationSettings,
  getOrganization,
  listOrganizations,
  updateNotificationSettings,
  updateOrganization,
  type CreateOrganizationForUser,
} from '../../domain/organizations/service.js';
import {
  listResourceSchema,
  pageQuerySchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../../domain/platform/schemas.js';
import { getProcessorStatus } from '../../domain/payments/configuration.js';
import { processorStatusSchema } from '../../domain/payments/schemas.js';
import type { Db } from '../../infra/db.js';
import type { Auth } from '../auth/auth.js';
import { AppError, InvalidInputError } from '../../domain/platform/errors.js';
import type { OperationRegistry } from '../http/operations.js';

const listQuerySchema = pageQuerySchema.extend({
  slug: textSchema({ max: TEXT_MAX_LENGTH.name, min: 1 }).optional(),
  sorting: sortingSchema(organizationSortFields),
});

/** Better Auth's own refusals while creating (organization limit, creation not allowed). */
function rethrowAuthRefusal(error: unknown): never {
  if (isAPIError(error)) {
    const message = typeof error.body?.message === 'string' ? error.body.message : error.message;
    throw error.statusCode === 403
      ? new AppError('NotPermitted', message)
      : new InvalidInputError([{ loc: ['body'], msg: message, type: 'value_error' }]);
  }
  throw error;
}

const common = { tag: 'organizations', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerOrganizationOperations(api: OperationRegistry, { db, auth }: { db: Db; auth: Auth }) {
  const createForUser: CreateOrganizationForUser = async ({ name, slug, userId }) => {
    const created = await auth.api.createOrganization({ body: { name, slug, userId } });
    if (!created) throw new Error('Better Auth created no organization');
    return { id: created.id };
  };

  api.add(
    {
      ...common,
      method: 'get',
      path: '/organizations/',
      operationId: 'organizations:list',
      summary: 'List organizations',
      query: listQuerySchema,
      response: listResourceSchema(organizationSchema),
    },
    async ({ query, caller }) => listOrganizations(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/organizations/',
      operationId: 'organizations:create',
      summary: 'Create an organization',
      body: organizationCreateSchema,
      response: organizationSchema,
    },
    async ({ body, caller }) => createOrganization(db, caller, body, createForUser).catch(rethrowAuthRefusal),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/organizations/{id}',
      operationId: 'organizations:get',
      summary: 'Get an organization',
      params: organizationIdParamsSchema,
      response: organizationSchema,
    },
    async ({ params, caller }) => getOrganization(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/organizations/{id}',
      operationId: 'organizations:update',
      summary: 'Update an organization',
      params: organizationIdParamsSchema,
      body: organizationUpdateSchema,
      response: organizationSchema,
    },
    async ({ params, body, caller }) => updateOrganization(db, caller, params.id, body),
  );

  api.add(
    {
      ...common,
      method: 'get',
      path: '/organizations/{id}/processor-status',
      operationId: 'organizations:get_processor_status',
      summary: "Get the payment processor's configuration problem, if any",
      extension:
        "Tollgate extension (docs/payments.md, \"Retry contract\"): set while the payment processor refuses the deployment's key or account for this organization's payments, which are retried meanwhile; cleared once one goes through. Owners and admins only (the dashboard's banner).",
      params: organizationIdParamsSchema,
      response: processorStatusSchema,
    },
    async ({ params, caller }) => getProcessorStatus(db, caller, params.id),
  );

  const notifications =
    'Tollgate extension: the signed-in member\'s own notifications from the organization (docs/web.md, "New order" emails). Each member reads and changes only their own; an access token has none.';
  api.add(
    {
      ...common,
      method: 'get',
      path: '/organizations/{id}/notification-settings',
      operationId: 'organizations:get_notification_settings',
      summary: 'Get my notification settings',
      extension: notifications,
      params: organizationIdParamsSchema,
      response: notificationSettingsSchema,
    },
    async ({ params, caller }) => getNotificationSettings(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/organizations/{id}/notification-settings',
      operationId: 'organizations:update_notification_settings',
      summary: 'Update my notification settings',
      extension: notifications,
      params: organizationIdParamsSchema,
      body: notificationSettingsUpdateSchema,
      response: notificationSettingsSchema,
    },
    async ({ params, body, caller }) => updateNotificationSettings(db, caller, params.id, body),
  );
}
