import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createAccessToken, createCustomer, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

// The dated versions as Polar's current SDKs select them (docs/api-versions.md).
describe('Polar-Version', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  const get = (path: string, token: string, version?: string) =>
    fetch(`${env.stack.baseUrl}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        ...(version === undefined ? {} : { 'polar-version': version }),
      },
    });

  /** A key as a license_keys grant writes one. */
  async function seedLicenseKey(organizationId: string, polar: Polar) {
    const db = env.database.db;
    const customer = await createCustomer(polar);
    const benefit = await db.benefit.create({
      data: { organizationId, type: 'license_keys', description: 'License', properties: {} },
    });
    const grant = await db.benefitGrant.create({
      data: { benefitId: benefit.id, customerId: customer.id, grantedAt: new Date() },
    });
    return db.licenseKey.create({
      data: {
        organizationId,
        customerId: customer.id,
        benefitId: benefit.id,
        grantId: grant.id,
        key: 'KEY-1',
        status: 'granted',
      },
    });
  }

  it('echoes the version it answered in, on errors too, and none to an unversioned call', async () => {
    const { organization, token } = await seller();
    for (const version of ['2026-04', '2026-10', '2027-01']) {
      const answer = await get(`/v1/organizations/${organization.id}`, token, version);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('polar-version')).toBe(version);
    }
    const missing = await get(`/v1/products/00000000-0000-4000-8000-000000000000`, token, '2026-10');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('polar-version')).toBe('2026-10');
    const unversioned = await get(`/v1/organizations/${organization.id}`, token);
    expect(unversioned.status).toBe(200);
    expect(unversioned.headers.get('polar-version')).toBeNull();
  });

  it('answers 404 to a version it does not speak, before anything else and changing nothing', async () => {
    const { token } = await seller();
    for (const version of ['2026-07', '2025-13', 'latest', '2026-10-01']) {
      const answer = await fetch(`${env.stack.baseUrl}/v1/customers/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'polar-version': version,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email: 'buyer@example.test' }),
      });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('polar-version')).toBeNull();
      expect(await answer.json()).toEqual({
        detail: `Polar-Version "${version}" is not a version of this API. Send one of 2026-04, 2026-10, 2027-01, or no Polar-Version for the unversioned API.`,
      });
    }
    expect(await env.database.db.customer.count()).toBe(0);
    // Who calls is not looked at either: the version comes first, as on Polar.
    expect((await get('/v1/organizations/', 'not-a-token', '1999-01')).status).toBe(404);
  });

  it("serves each field in the versions that have it: a license key's member from 2026-10", async () => {
    const { organization, token, polar } = await seller();
    const key = await seedLicenseKey(organization.id, polar);
    const read = async (version?: string) =>
      (await (await get(`/v1/license-keys/${key.id}`, token, version)).json()) as Record<string, unknown>;
    expect(await read('2026-04')).not.toHaveProperty('member_id');
    expect(await read('2026-04')).not.toHaveProperty('member');
    expect(await read('2026-10')).toMatchObject({ id: key.id, member_id: null, member: null });
    expect(await read('2027-01')).toMatchObject({ member_id: null, member: null });
    // The unversioned API has every field an older client can ignore; 0.33.2 still reads it.
    expect(await read()).toMatchObject({ member_id: null, member: null });
    expect((await polar.licenseKeys.get({ id: key.id })).id).toBe(key.id);
    const list = (await (await get('/v1/license-keys/', token, '2026-04')).json()) as {
      items: Record<string, unknown>[];
    };
    expect(list.items[0]).not.toHaveProperty('member_id');
  });

  describe('OpenAPI documents', () => {
    const validator = () => new Validator();

    it('serves one valid OpenAPI 3.1 document per version, each with only its own fields', async () => {
      for (const version of ['2026-04', '2026-10', '2027-01']) {
        const answer = await fetch(`${env.stack.baseUrl}/${version}/openapi.json`);
        expect(answer.status).toBe(200);
        const document = (await answer.json()) as {
          info: { version: string };
          components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
        };
        expect(document.info.version).toBe(version);
        const result = await validator().validate(document as unknown as Record<string, unknown>);
        expect(result.errors ?? []).toEqual([]);
        expect(result.valid).toBe(true);
        const memberInDocument = JSON.stringify(document).includes('"LicenseKeyMember"');
        expect(memberInDocument).toBe(version !== '2026-04');
      }
      expect((await fetch(`${env.stack.baseUrl}/2026-07/openapi.json`)).status).toBe(404);
    });

    it('serves the unversioned document at /v1/openapi.json, and a version’s when the header names one', async () => {
      const unversioned = (await (await fetch(`${env.stack.baseUrl}/v1/openapi.json`)).json()) as {
        info: { version: string };
      };
      expect(JSON.stringify(unversioned)).toContain('"LicenseKeyMember"');
      const april = (await (
        await fetch(`${env.stack.baseUrl}/v1/openapi.json`, { headers: { 'polar-version': '2026-04' } })
      ).json()) as { info: { version: string } };
      expect(april.info.version).toBe('2026-04');
      expect(JSON.stringify(april)).not.toContain('"LicenseKeyMember"');
      expect(unversioned.info.version).not.toBe('2026-04');
    });
  });
});
