// License keys in the portal (Polar's portal `license-keys`): the signed-in customer's keys, and the
// checks a buyer's machine makes with the key alone (validate, activate, deactivate), which take no
// session. The router limits those checks per address and per key.
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import { getPortalLicenseKey, listPortalLicenseKeys } from '../../../domain/customer-portal/license-keys.js';
import {
  customerLicenseKeyListQuerySchema,
  customerLicenseKeySchema,
  licenseKeyActivateSchema,
  licenseKeyActivationSchema,
  licenseKeyDeactivateSchema,
  licenseKeyValidateSchema,
  validatedLicenseKeySchema,
} from '../../../domain/customer-portal/schemas.js';
import { licenseKeyWithActivationsSchema } from '../../../domain/license-keys/schemas.js';
import {
  activateLicenseKey,
  deactivateLicenseKey,
  validateLicenseKey,
} from '../../../domain/license-keys/service.js';
import { idParamsSchema, listResourceSchema } from '../../../domain/platform/schemas.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

export function registerPortalLicenseKeyOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/license-keys/',
      operationId: 'customer_portal:license_keys:list',
      summary: "List the customer's license keys",
      tag,
      query: customerLicenseKeyListQuerySchema,
      response: listResourceSchema(customerLicenseKeySchema),
    },
    ({ customer, query }) => listPortalLicenseKeys(ctx, customer, query),
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/license-keys/validate',
      operationId: 'customer_portal:license_keys:validate',
      summary: 'Check a license key (no credentials: the key is one)',
      tag,
      body: licenseKeyValidateSchema,
      status: 200,
      response: validatedLicenseKeySchema,
      errors: ['ResourceNotFound', 'BadRequest'],
    },
    ({ body }) => validateLicenseKey(ctx.db, body),
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/license-keys/activate',
      operationId: 'customer_portal:license_keys:activate',
      summary: 'Activate a license key on a device',
      tag,
      body: licenseKeyActivateSchema,
      status: 200,
      response: licenseKeyActivationSchema,
      errors: ['ResourceNotFound', 'NotPermitted'],
    },
    ({ body }) => activateLicenseKey(ctx.db, body),
  );
  api.addPublic(
    {
      method: 'post',
      path: '/customer-portal/license-keys/deactivate',
      operationId: 'customer_portal:license_keys:deactivate',
      summary: 'Deactivate a license key on a device',
      tag,
      body: licenseKeyDeactivateSchema,
      status: 204,
      errors: ['ResourceNotFound'],
    },
    async ({ body }) => {
      await deactivateLicenseKey(ctx.db, body);
    },
  );

  // After the checks: `/license-keys/{id}` would otherwise claim `validate` and the others.
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/license-keys/{id}',
      operationId: 'customer_portal:license_keys:get',
      summary: 'Get a license key with its activations',
      tag,
      params: idParamsSchema,
      response: licenseKeyWithActivationsSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalLicenseKey(ctx, customer, params.id),
  );
}
