import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createCustomField, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

describe('/v1/custom-fields', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  async function tenant() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  const send = (token: string, method: string, path: string, body: unknown) =>
    fetch(`${env.stack.baseUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  describe('custom_fields:create', () => {
    it('creates each type with its properties, in the shape the SDK validates', async () => {
      const { organization, polar } = await tenant();
      const created = [
        await polar.customFields.create({
          type: 'text',
          slug: 'company',
          name: 'Company',
          properties: { textarea: false, minLength: 2, maxLength: 80, formLabel: 'Company' },
        }),
        await polar.customFields.create({
          type: 'number',
          slug: 'seats',
          name: 'Seats',
          properties: { ge: 1, le: 100 },
        }),
        await polar.customFields.create({
          type: 'date',
          slug: 'start',
          name: 'Start',
          properties: { ge: 1_700_000_000 },
        }),
        await polar.customFields.create({
          type: 'checkbox',
          slug: 'terms',
          name: 'Terms',
          properties: { formHelpText: 'Please accept' },
        }),
        await polar.customFields.create({
          type: 'select',
          slug: 'size',
          name: 'Size',
          metadata: { source: 'import' },
          properties: {
            options: [
              { value: 's', label: 'Small' },
              { value: 'l', label: 'Large' },
            ],
          },
        }),
      ];
      expect(created.map((field) => field.type)).toEqual(['text', 'number', 'date', 'checkbox', 'select']);
      expect(created[0]).toMatchObject({
        organizationId: organization.id,
        properties: { minLength: 2, maxLength: 80, formLabel: 'Company' },
      });
      expect(created[4]).toMatchObject({
        metadata: { source: 'import' },
        properties: {
          options: [
            { value: 's', label: 'Small' },
            { value: 'l', label: 'Large' },
          ],
        },
      });
      expect(await polar.customFields.get({ id: created[1]!.id })).toEqual(created[1]);
    });

    it.each([
      ['a slug with spaces', { slug: 'my field' }, ['body', 'slug']],
      ['properties of another type', { properties: { options: [] } }, ['body', 'properties']],
      ['ge above le', { type: 'number', properties: { ge: 10, le: 1 } }, ['body', 'properties', 'ge']],
      ['an unknown type', { type: 'color' }, ['body', 'type']],
      [
        'too many metadata keys',
        { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
        ['body', 'metadata'],
      ],
    ])('answers 422 for %s and creates nothing', async (_case, overrides, loc) => {
      const { organization, token } = await tenant();
      const response = await send(token, 'POST', '/custom-fields/', {
        type: 'text',
        slug: 'field',
        name: 'Field',
        properties: {},
        ...overrides,
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { loc: unknown[] }[] };
      expect(body.detail[0]?.loc).toEqual(loc);
      expect(await env.database.db.customField.count({ where: { organizationId: organization.id } })).toBe(0);
    });

    it('keeps slugs unique per organization, not across organizations', async () => {
      const { polar } = await tenant();
      const other = await tenant();
      const field = { type: 'checkbox' as const, slug: 'terms', name: 'Terms', properties: {} };
      await polar.customFields.create(field);
      await expect(polar.customFields.create(field)).rejects.toMatchObject({ name: 'HTTPValidationError' });
      await expect(other.polar.customFields.create(field)).resolves.toMatchObject({ slug: 'terms' });
    });
  });

  describe('custom_fields:update and custom_fields:delete', () => {
    it('updates name, slug and properties but never the type', async () => {
      const { polar, token } = await tenant();
      const field = await polar.customFields.create({
        type: 'text',
        slug: 'company',
        name: 'Company',
        properties: {},
      });
      const updated = await polar.customFields.update({
        id: field.id,
        customFieldUpdate: {
          type: 'text',
          name: 'Company name',
          slug: 'company-name',
          properties: { maxLength: 50 },
        },
      });
      expect(updated).toMatchObject({
        name: 'Company name',
        slug: 'company-name',
        properties: { maxLength: 50 },
      });
      expect(updated.modifiedAt).toBeInstanceOf(Date);
      const response = await send(token, 'PATCH', `/custom-fields/${field.id}`, {
        type: 'number',
        name: 'Other',
      });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual([
        'body',
        'type',
      ]);
      expect(await polar.customFields.get({ id: field.id })).toEqual(updated);
    });

    it('deletes a field and detaches it from products', async () => {
      const { polar } = await tenant();
      const kept = await polar.customFields.create({
        type: 'checkbox',
        slug: 'kept',
        name: 'Kept',
        properties: {},
      });
      const gone = await polar.customFields.create({
        type: 'checkbox',
        slug: 'gone',
        name: 'Gone',
        properties: {},
      });
      const product = await polar.products.create({
        name: 'Widget',
        recurringInterval: null,
        prices: [{ amountType: 'free' }],
        attachedCustomFields: [
          { customFieldId: gone.id, required: true },
          { customFieldId: kept.id, required: false },
        ],
      });
      await polar.customFields.delete({ id: gone.id });
      await expect(polar.customFields.get({ id: gone.id })).rejects.toMatchObject({
        name: 'ResourceNotFound',
      });
      const reread = await polar.products.get({ id: product.id });
      expect(reread.attachedCustomFields.map((field) => field.customFieldId)).toEqual([kept.id]);
    });
  });

  describe('custom_fields:list', () => {
    it('filters by type and query, sorts, and shows only the caller’s fields', async () => {
      const { organization, polar } = await tenant();
      const other = await tenant();
      await createCustomField(env.database.db, other.organization.id, { slug: 'alpha' });
      const alpha = await createCustomField(env.database.db, organization.id, {
        slug: 'alpha',
        name: 'Zeta name',
      });
      const beta = await createCustomField(env.database.db, organization.id, {
        slug: 'beta',
        name: 'Alpha name',
        type: 'checkbox',
        properties: {},
      });
      const ids = async (request: Parameters<Polar['customFields']['list']>[0]) =>
        (await polar.customFields.list(request)).result.items.map((field) => field.id);
      expect(await ids({})).toEqual([alpha.id, beta.id]);
      expect(await ids({ sorting: ['name'] })).toEqual([beta.id, alpha.id]);
      expect(await ids({ typeFilter: 'checkbox' })).toEqual([beta.id]);
      expect(await ids({ typeFilter: ['text', 'checkbox'], sorting: ['-slug'] })).toEqual([
        beta.id,
        alpha.id,
      ]);
      expect(await ids({ query: 'zeta' })).toEqual([alpha.id]);
    });
  });
});
