// Who may see and manage an organization's webhook endpoints: shared by the endpoint operations,
// redelivery and the dashboard's extensions, so each reads an endpoint under the same access rule.
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, organizationAccess } from '../access/service.js';
import { AppError } from '../platform/errors.js';
import { findWebhookEndpoint } from './repository.js';

export const notFound = () => new AppError('ResourceNotFound', 'Webhook endpoint not found');

export async function requireManager(db: Db, caller: Caller, organizationId: string) {
  const access = await organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw notFound();
  if (access === 'read') {
    throw new AppError('NotPermitted', 'Only owners and admins can manage webhooks.');
  }
}

export async function findAccessibleEndpoint(db: Db, caller: Caller, id: string) {
  const row = await findWebhookEndpoint(db, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw notFound();
  return row;
}
