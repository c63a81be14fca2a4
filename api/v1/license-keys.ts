import {
  licenseKeyActivationParamsSchema,
  licenseKeyIdParamsSchema,
  licenseKeyListQuerySchema,
  licenseKeySchema,
  licenseKeyUpdateSchema,
  licenseKeyWithActivationsSchema,
} from '../../domain/license-keys/schemas.js';
import {
  activateLicenseKey,
  deactivateLicenseKey,
  getLicenseKey,
  getLicenseKeyActivation,
  listLicenseKeys,
  updateLicenseKey,
  validateLicenseKey,
} from '../../domain/license-keys/service.js';
import {
  licenseKeyActivateSchema,
  licenseKeyActivationSchema,
  licenseKeyDeactivateSchema,
  licenseKeyValidateSchema,
  validatedLicenseKeySchema,
} from '../../domain/customer-portal/schemas.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../../domain/access/rules.js';
import { organizationAccess } from '../../domain/access/service.js';
import { AppError } from '../../domain/platform/errors.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'license_keys', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

/**
 * The organization a seller's check names must be the caller's: another organization's key is
 * not found, whatever the key.
 */
async function ownOrganization(db: Db, caller: Caller, organizationId: string): Promise<string> {
  const access = await organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw new AppError('ResourceNotFound', 'License key not found.');
  // A check counts a validation or takes a device: a change, as the seller's server makes it.
  if (access === 'read') throw new AppError('NotPermitted', 'Only owners and admins can check license keys.');
  return organizationId;
}

/** The seller's license keys, given by license_keys benefits (docs/benefits.md). */
export function registerLicenseKeyOperations(api: OperationRegistry, { db }: { db: Db }) {
  // The checks the buyer's machine makes through the portal, made by the seller's own server with
  // its token (Polar's licenseKeys.validate, activate, deactivate). Before `/license-keys/{id}`,
  // whose method check would otherwise answer these paths.
  api.add(
    {
      ...common,
      method: 'post',
      path: '/license-keys/validate',
      operationId: 'license_keys:validate',
      summary: 'Check a license key of the organization',
      body: licenseKeyValidateSchema,
      status: 200,
      response: validatedLicenseKeySchema,
      errors: ['ResourceNotFound', 'BadRequest', 'NotPermitted'],
    },
    async ({ body, caller }) =>
      validateLicenseKey(db, {
        ...body,
        organization_id: await ownOrganization(db, caller, body.organization_id),
      }),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/license-keys/activate',
      operationId: 'license_keys:activate',
      summary: 'Activate a license key of the organization on a device',
      body: licenseKeyActivateSchema,
      status: 200,
      response: licenseKeyActivationSchema,
    },
    async ({ body, caller }) =>
      activateLicenseKey(db, {
        ...body,
        organization_id: await ownOrganization(db, caller, body.organization_id),
      }),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/license-keys/deactivate',
      operationId: 'license_keys:deactivate',
      summary: 'Deactivate a license key of the organization on a device',
      body: licenseKeyDeactivateSchema,
      status: 204,
    },
    async ({ body, caller }) => {
      await deactivateLicenseKey(db, {
        ...body,
        organization_id: await ownOrganization(db, caller, body.organization_id),
      });
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/license-keys/',
      operationId: 'license_keys:list',
      summary: 'List license keys',
      query: licenseKeyListQuerySchema,
      response: listResourceSchema(licenseKeySchema),
    },
    async ({ query, caller }) => listLicenseKeys(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/license-keys/{id}',
      operationId: 'license_keys:get',
      summary: 'Get a license key with its activations',
      params: licenseKeyIdParamsSchema,
      response: licenseKeyWithActivationsSchema,
    },
    async ({ params, caller }) => getLicenseKey(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/license-keys/{id}',
      operationId: 'license_keys:update',
      summary: 'Update a license key',
      params: licenseKeyIdParamsSchema,
      body: licenseKeyUpdateSchema,
      response: licenseKeyWithActivationsSchema,
    },
    async ({ params, body, caller }) => updateLicenseKey(db, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/license-keys/{id}/activations/{activation_id}',
      operationId: 'license_keys:get_activation',
      summary: 'Get an activation of a license key',
      params: licenseKeyActivationParamsSchema,
      response: licenseKeyActivationSchema,
    },
    async ({ params, caller }) => getLicenseKeyActivation(db, caller, params.id, params.activation_id),
  );
}
