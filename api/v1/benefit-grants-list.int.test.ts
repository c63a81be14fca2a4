import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { createAccessToken, createOrganization, createUploadedFile } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

// The seller's grants across every benefit (benefitGrants.list, @polar-sh/sdk@0.48.1 with its
// response validation): the SDK's filters and sortings. Who may list is the tenancy scenario's.
describe('benefitGrants.list (through @polar-sh/sdk@0.48.1)', () => {
  const env = useTestStack({ withWorker: false });

  async function sellerWithGrants() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const support = await polar.benefits.create({
      type: 'custom',
      description: 'Support',
      properties: { note: 'Write to help@example.test' },
    });
    const manual = await polar.benefits.create({
      type: 'custom',
      description: 'Manual',
      properties: { note: null },
    });
    const ada = await polar.customers.create({ email: 'ada@example.test', externalId: 'user-ada' });
    const bob = await polar.customers.create({ email: 'bob@example.test', externalId: 'user-bob' });
    // Grants are made by purchases: written as the grant step writes them, on three days.
    const day = (n: number) => new Date(Date.UTC(2026, 10, n, 12));
    const grant = (benefitId: string, customerId: string, data: Record<string, unknown>) =>
      env.database.db.benefitGrant.create({ data: { benefitId, customerId, ...data } });
    const adaSupport = await grant(support.id, ada.id, { createdAt: day(1), grantedAt: day(1) });
    const adaManual = await grant(manual.id, ada.id, {
      createdAt: day(2),
      grantedAt: day(2),
      revokedAt: day(5),
    });
    const bobSupport = await grant(support.id, bob.id, { createdAt: day(3), grantedAt: day(3) });
    return { organization, polar, support, manual, ada, bob, adaSupport, adaManual, bobSupport };
  }

  const idsOf = (page: { result: { items: { id: string }[] } }) => page.result.items.map((item) => item.id);

  it('lists every grant of the organization, newest first, with its customer and benefit', async () => {
    const { polar, adaSupport, adaManual, bobSupport, support, ada } = await sellerWithGrants();
    const page = await polar.benefitGrants.list({});
    expect(idsOf(page)).toEqual([bobSupport.id, adaManual.id, adaSupport.id]);
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 1 });
    const adas = page.result.items.find((item) => item.id === adaSupport.id)!;
    expect(adas).toMatchObject({
      isGranted: true,
      isRevoked: false,
      customerId: ada.id,
      benefitId: support.id,
      customer: { id: ada.id, email: 'ada@example.test' },
      benefit: { id: support.id, description: 'Support' },
    });
  });

  it('filters by granted or not, customer, external customer id and organization; pages', async () => {
    const { polar, organization, adaSupport, adaManual, bobSupport, ada, bob } = await sellerWithGrants();
    expect(idsOf(await polar.benefitGrants.list({ isGranted: true }))).toEqual([
      bobSupport.id,
      adaSupport.id,
    ]);
    expect(idsOf(await polar.benefitGrants.list({ isGranted: false }))).toEqual([adaManual.id]);
    expect(idsOf(await polar.benefitGrants.list({ customerId: ada.id }))).toEqual([
      adaManual.id,
      adaSupport.id,
    ]);
    expect(idsOf(await polar.benefitGrants.list({ customerId: [ada.id, bob.id] }))).toHaveLength(3);
    expect(idsOf(await polar.benefitGrants.list({ externalCustomerId: 'user-bob' }))).toEqual([
      bobSupport.id,
    ]);
    expect(
      idsOf(await polar.benefitGrants.list({ externalCustomerId: ['user-bob', 'user-ada'] })),
    ).toHaveLength(3);
    expect(idsOf(await polar.benefitGrants.list({ organizationId: organization.id }))).toHaveLength(3);
    const second = await polar.benefitGrants.list({ limit: 2, page: 2 });
    expect(idsOf(second)).toEqual([adaSupport.id]);
    expect(second.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
  });

  it('sorts by creation, grant and revocation; never-revoked grants last either way', async () => {
    const { polar, adaSupport, adaManual, bobSupport } = await sellerWithGrants();
    expect(idsOf(await polar.benefitGrants.list({ sorting: ['created_at'] }))).toEqual([
      adaSupport.id,
      adaManual.id,
      bobSupport.id,
    ]);
    expect(idsOf(await polar.benefitGrants.list({ sorting: ['-granted_at'] }))).toEqual([
      bobSupport.id,
      adaManual.id,
      adaSupport.id,
    ]);
    expect(idsOf(await polar.benefitGrants.list({ sorting: ['-revoked_at'] }))[0]).toBe(adaManual.id);
    expect(idsOf(await polar.benefitGrants.list({ sorting: ['revoked_at'] }))[0]).toBe(adaManual.id);
  });

  it('leaves out grants of deleted benefits and customers', async () => {
    const { polar, manual, bob, adaSupport } = await sellerWithGrants();
    await polar.benefits.delete({ id: manual.id });
    await polar.customers.delete({ id: bob.id });
    // Deleting revokes in the background; the list never shows the deleted ones meanwhile.
    expect(idsOf(await polar.benefitGrants.list({}))).toEqual([adaSupport.id]);
  });

  it('refuses an unknown sorting and a malformed customer id (422)', async () => {
    const { organization } = await sellerWithGrants();
    const token = await createAccessToken(env.database.db, organization.id);
    const get = (query: string) =>
      fetch(`${env.stack.baseUrl}/v1/benefit-grants/?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    for (const query of ['sorting=description', 'customer_id=not-a-uuid', 'is_granted=maybe']) {
      const answer = await get(query);
      expect(answer.status).toBe(422);
      expect(((await answer.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc[0]).toBe('query');
    }
  });

  // benefits.files: Polar's Python SDK 1.0.2 has it (0.48.1 has not), so it is called over HTTP.
  it("benefits.files: a downloadables benefit's files in its order, with downloads and downloaders", async () => {
    const { organization, polar, ada, bob, support } = await sellerWithGrants();
    const token = await createAccessToken(env.database.db, organization.id);
    const manual = await createUploadedFile(env.database.db, organization.id, {
      service: 'downloadable',
      name: 'manual.pdf',
      mimeType: 'application/pdf',
    });
    const maps = await createUploadedFile(env.database.db, organization.id, {
      service: 'downloadable',
      name: 'maps.zip',
      mimeType: 'application/zip',
    });
    const files = await polar.benefits.create({
      type: 'downloadables',
      description: 'Files',
      properties: { files: [maps.id, manual.id] },
    });
    // As downloads leave them: Ada twice and Bob once the manual, nobody the maps.
    for (const [customerId, downloads] of [
      [ada.id, 2],
      [bob.id, 1],
    ] as const) {
      await env.database.db.downloadable.create({
        data: {
          organizationId: organization.id,
          customerId,
          benefitId: files.id,
          fileId: manual.id,
          status: 'granted',
          downloads,
        },
      });
    }
    const get = async (id: string, query = '') => {
      const response = await fetch(`${env.stack.baseUrl}/v1/benefits/${id}/files${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const listed = await get(files.id);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      items: [
        expect.objectContaining({
          id: maps.id,
          name: 'maps.zip',
          service: 'downloadable',
          mime_type: 'application/zip',
          is_uploaded: true,
          flagged_malicious_at: null,
          downloads: 0,
          downloaders: 0,
          size_readable: expect.any(String),
        }),
        expect.objectContaining({ id: manual.id, downloads: 3, downloaders: 2 }),
      ],
      pagination: { total_count: 2, max_page: 1 },
    });
    const second = await get(files.id, '?limit=1&page=2');
    expect((second.body.items as { id: string }[]).map((item) => item.id)).toEqual([manual.id]);
    expect(second.body.pagination).toEqual({ total_count: 2, max_page: 2 });
    // A benefit of another type has no files; a missing one is not found.
    expect((await get(support.id)).body).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
    expect((await get('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
