import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, organizationAccess } from '../access/service.js';
import { CatalogError } from './errors.js';

/**
 * The organization a catalog object is created in: a token's own, or for a signed-in user the
 * `organization_id` of the body. Another organization is not found; a member without a manager
 * role may read but not write (spec §6).
 */
export async function organizationToWrite(
  db: Db,
  caller: Caller,
  organizationId: string | null | undefined,
  what: string,
): Promise<string> {
  const id = organizationId ?? (caller.kind === 'organization_access_token' ? caller.organizationId : null);
  if (!id) throw CatalogError.invalid(['organization_id'], 'organization_id is required.', 'missing');
  await assertCanWrite(db, caller, id, what);
  return id;
}

/** Refuses a write on an organization's object: 404 without access, 403 with read access only. */
export async function assertCanWrite(db: Db, caller: Caller, organizationId: string, what: string) {
  const access = await organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw new CatalogError('not_found', `${what} not found`);
  if (access === 'read') {
    throw new CatalogError('not_permitted', `Only owners and admins can change ${what.toLowerCase()}s.`);
  }
}

/**
 * The organizations a list reads from: every organization the caller may see, narrowed by the
 * `organization_id` filter (one id or several).
 */
export async function organizationsToRead(
  db: Db,
  caller: Caller,
  filter: string | string[] | undefined,
): Promise<string[]> {
  const accessible = await accessibleOrganizationIds(db, caller);
  if (filter === undefined) return accessible;
  const wanted = new Set(Array.isArray(filter) ? filter : [filter]);
  return accessible.filter((id) => wanted.has(id));
}
