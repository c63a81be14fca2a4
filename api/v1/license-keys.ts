import {
  licenseKeyActivationParamsSchema,
  licenseKeyActivationSchema,
  licenseKeyIdParamsSchema,
  licenseKeyListQuerySchema,
  licenseKeySchema,
  licenseKeyUpdateSchema,
  licenseKeyWithActivationsSchema,
} from '../../domain/license-keys/schemas.js';
import {
  getLicenseKey,
  getLicenseKeyActivation,
  listLicenseKeys,
  updateLicenseKey,
} from '../../domain/license-keys/service.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'license_keys', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

/** The seller's license keys, given by license_keys benefits (docs/benefits.md). */
export function registerLicenseKeyOperations(api: OperationRegistry, { db }: { db: Db }) {
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
