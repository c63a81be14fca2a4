import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { callV1 } from '../../test/http.js';
import { createAccessToken, createCustomer, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

// The seller's own server checks its buyers' keys with its token (Polar's licenseKeys.validate,
// activate and deactivate); the portal's key-only checks are tested in customer-portal.int.test.ts.
describe('/v1/license-keys checks', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  async function sellerWithKey(limitActivations: number | null = 2) {
    const db = env.database.db;
    const organization = await createOrganization(db);
    const token = await createAccessToken(db, organization.id);
    const customer = await createCustomer(new Polar({ accessToken: token, serverURL: env.stack.baseUrl }));
    const benefit = await db.benefit.create({
      data: { organizationId: organization.id, type: 'license_keys', description: 'License', properties: {} },
    });
    const grant = await db.benefitGrant.create({
      data: { benefitId: benefit.id, customerId: customer.id, grantedAt: new Date() },
    });
    const key = await db.licenseKey.create({
      data: {
        organizationId: organization.id,
        customerId: customer.id,
        benefitId: benefit.id,
        grantId: grant.id,
        key: `KEY-${organization.id.slice(0, 8)}`,
        status: 'granted',
        limitActivations,
      },
    });
    return { organization, token, key };
  }

  it('validates, activates and deactivates a key of the organization, counting as the portal does', async () => {
    const { organization, token, key } = await sellerWithKey();
    const check = { key: key.key, organization_id: organization.id };
    const validated = await callV1(env.stack.baseUrl, token, 'POST', '/license-keys/validate', {
      ...check,
      increment_usage: 2,
    });
    expect(validated.status).toBe(200);
    expect(validated.body).toMatchObject({ id: key.id, usage: 2, validations: 1, activation: null });

    const activated = await callV1(env.stack.baseUrl, token, 'POST', '/license-keys/activate', {
      ...check,
      label: 'Laptop',
    });
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ label: 'Laptop', license_key_id: key.id });
    const activationId = activated.body.id as string;
    const withActivation = await callV1(env.stack.baseUrl, token, 'POST', '/license-keys/validate', {
      ...check,
      activation_id: activationId,
    });
    expect(withActivation.body).toMatchObject({ activation: { id: activationId } });

    const deactivated = await fetch(`${env.stack.baseUrl}/v1/license-keys/deactivate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...check, activation_id: activationId }),
    });
    expect(deactivated.status).toBe(204);
    expect(
      await env.database.db.licenseKeyActivation.count({ where: { licenseKeyId: key.id, deletedAt: null } }),
    ).toBe(0);
  });

  it("finds no key of another organization, whether the body names it or the caller's own", async () => {
    const ours = await sellerWithKey();
    const theirs = await sellerWithKey();
    const namingTheirs = await callV1(env.stack.baseUrl, ours.token, 'POST', '/license-keys/validate', {
      key: theirs.key.key,
      organization_id: theirs.organization.id,
    });
    const namingOurs = await callV1(env.stack.baseUrl, ours.token, 'POST', '/license-keys/validate', {
      key: theirs.key.key,
      organization_id: ours.organization.id,
    });
    for (const answer of [namingTheirs, namingOurs]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('ResourceNotFound');
    }
    const stored = await env.database.db.licenseKey.findUniqueOrThrow({ where: { id: theirs.key.id } });
    expect(stored.validations).toBe(0);
  });
});
