import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import {
  WebhookProductCreatedPayload$inboundSchema,
  type WebhookProductCreatedPayload,
} from '@polar-sh/sdk/models/components/webhookproductcreatedpayload.js';
import {
  WebhookProductUpdatedPayload$inboundSchema,
  type WebhookProductUpdatedPayload,
} from '@polar-sh/sdk/models/components/webhookproductupdatedpayload.js';
import { getProductPrice } from '../../domain/products/service.js';
import {
  createAccessToken,
  createCustomField,
  createMeter,
  createOrganization,
  createUploadedFile,
} from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('/v1/products', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  async function tenant() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  const fixedMonthly = (polar: Polar, name = 'Pro plan') =>
    polar.products.create({
      name,
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
    });

  async function post(token: string, path: string, body: unknown, method = 'POST') {
    const response = await fetch(`${env.stack.baseUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { detail: { loc: unknown[] }[] } };
  }

  const outbox = (organizationId: string) =>
    env.database.db.outboxEvent.findMany({ where: { organizationId }, orderBy: { createdAt: 'asc' } });

  describe('products:create', () => {
    it('creates a product with every price type, media and custom fields, and records product.created', async () => {
      const { organization, polar } = await tenant();
      const meter = await createMeter(env.database.db, organization.id, { name: 'Tokens' });
      const media = await createUploadedFile(env.database.db, organization.id);
      const field = await createCustomField(env.database.db, organization.id);
      const product = await polar.products.create({
        name: 'Usage plan',
        description: 'Pay per token',
        recurringInterval: 'month',
        metadata: { tier: 'gold', seats: 3, beta: true, ratio: 0.5 },
        prices: [
          {
            amountType: 'custom',
            priceCurrency: 'usd',
            minimumAmount: 500,
            presetAmount: 1000,
            maximumAmount: 5000,
          },
          {
            amountType: 'metered_unit',
            meterId: meter.id,
            priceCurrency: 'usd',
            unitAmount: '0.05',
            capAmount: 10000,
          },
        ],
        medias: [media.id],
        attachedCustomFields: [{ customFieldId: field.id, required: true }],
      });

      expect(product).toMatchObject({
        name: 'Usage plan',
        description: 'Pay per token',
        recurringInterval: 'month',
        isRecurring: true,
        isArchived: false,
        organizationId: organization.id,
        metadata: { tier: 'gold', seats: 3, beta: true, ratio: 0.5 },
        benefits: [],
      });
      expect(product.prices).toEqual([
        expect.objectContaining({
          amountType: 'custom',
          type: 'recurring',
          recurringInterval: 'month',
          minimumAmount: 500,
          presetAmount: 1000,
          maximumAmount: 5000,
          isArchived: false,
          productId: product.id,
        }),
        expect.objectContaining({
          amountType: 'metered_unit',
          unitAmount: '0.05',
          capAmount: 10000,
          meterId: meter.id,
          meter: { id: meter.id, name: 'Tokens' },
        }),
      ]);
      expect(product.medias).toEqual([
        expect.objectContaining({
          id: media.id,
          service: 'product_media',
          isUploaded: true,
          sizeReadable: '3.0 B',
        }),
      ]);
      expect(product.medias[0]?.publicUrl).toBe(`${env.stack.baseUrl}/api/files/public/${media.id}`);
      expect(product.attachedCustomFields).toEqual([
        expect.objectContaining({ customFieldId: field.id, order: 0, required: true }),
      ]);
      expect(product.attachedCustomFields[0]?.customField).toMatchObject({
        id: field.id,
        slug: field.slug,
        type: 'text',
      });

      const events = await outbox(organization.id);
      expect(events.map((event) => event.type)).toEqual(['product.created']);
      // The SDK's schemas are typed for its own zod major, so the parsed type is restated here.
      const payload = WebhookProductCreatedPayload$inboundSchema.parse(
        events[0]?.payload,
      ) as WebhookProductCreatedPayload;
      expect(payload.data).toEqual(product);
    });

    it('creates free and fixed one-time products', async () => {
      const { polar } = await tenant();
      const free = await polar.products.create({
        name: 'Free ebook',
        recurringInterval: null,
        prices: [{ amountType: 'free' }],
      });
      expect(free).toMatchObject({ isRecurring: false, recurringInterval: null });
      expect(free.prices).toEqual([expect.objectContaining({ amountType: 'free', type: 'one_time' })]);
      const fixed = await polar.products.create({
        name: 'Course',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 4900 }],
      });
      expect(fixed.prices[0]).toMatchObject({ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' });
    });

    it('takes a pay-what-you-want minimum of 0 ("free or pay what you want") on create and update', async () => {
      const { polar } = await tenant();
      const created = await polar.products.create({
        name: 'Zine',
        recurringInterval: null,
        prices: [{ amountType: 'custom', minimumAmount: 0, presetAmount: 500 }],
      });
      expect(created.prices[0]).toMatchObject({ amountType: 'custom', minimumAmount: 0, presetAmount: 500 });
      const fixed = await polar.products.create({
        name: 'Print',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 1500 }],
      });
      const updated = await polar.products.update({
        id: fixed.id,
        productUpdate: { prices: [{ amountType: 'custom', minimumAmount: 0 }] },
      });
      expect(updated.prices).toEqual([
        expect.objectContaining({ amountType: 'custom', minimumAmount: 0, presetAmount: null }),
      ]);
    });

    it.each([
      [
        'a price below the minimum',
        { prices: [{ amount_type: 'fixed', price_amount: 49 }] },
        ['body', 'prices', 0, 'price_amount'],
      ],
      [
        'a fractional amount',
        { prices: [{ amount_type: 'fixed', price_amount: 10.5 }] },
        ['body', 'prices', 0, 'price_amount'],
      ],
      [
        'another currency',
        { prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'eur' }] },
        ['body', 'prices', 0, 'price_currency'],
      ],
      [
        'two static prices',
        { prices: [{ amount_type: 'free' }, { amount_type: 'fixed', price_amount: 1000 }] },
        ['body', 'prices', 1],
      ],
      ['no price', { prices: [] }, ['body', 'prices']],
      [
        'a pay-what-you-want minimum between 0 and the smallest charge',
        { prices: [{ amount_type: 'custom', minimum_amount: 49 }] },
        ['body', 'prices', 0, 'minimum_amount'],
      ],
      [
        'a preset below the minimum',
        { prices: [{ amount_type: 'custom', minimum_amount: 1000, preset_amount: 500 }] },
        ['body', 'prices', 0, 'preset_amount'],
      ],
      [
        'a unit amount with 13 decimals',
        {
          recurring_interval: 'month',
          prices: [{ amount_type: 'metered_unit', meter_id: MISSING_ID, unit_amount: '0.0000000000001' }],
        },
        ['body', 'prices', 0, 'unit_amount'],
      ],
      [
        'a metered price on a one-time product',
        { prices: [{ amount_type: 'metered_unit', meter_id: MISSING_ID, unit_amount: 1 }] },
        ['body', 'prices', 0],
      ],
      [
        'an unknown meter',
        {
          recurring_interval: 'month',
          prices: [{ amount_type: 'metered_unit', meter_id: MISSING_ID, unit_amount: 1 }],
        },
        ['body', 'prices', 0, 'meter_id'],
      ],
      [
        'a metadata key over 40 characters',
        { metadata: { ['k'.repeat(41)]: 'v' } },
        ['body', 'metadata', 'k'.repeat(41)],
      ],
      [
        'a metadata value over 500 characters',
        { metadata: { note: 'x'.repeat(501) } },
        ['body', 'metadata', 'note'],
      ],
      ['a nested metadata value', { metadata: { nested: { a: 1 } } }, ['body', 'metadata', 'nested']],
      ['a short name', { name: 'ab' }, ['body', 'name']],
      ['an unknown field', { colour: 'red' }, ['body']],
      ['an unknown media file', { medias: [MISSING_ID] }, ['body', 'medias', 0]],
      [
        'an unknown custom field',
        { attached_custom_fields: [{ custom_field_id: MISSING_ID, required: false }] },
        ['body', 'attached_custom_fields', 0, 'custom_field_id'],
      ],
    ])('answers 422 for %s, naming the field, and creates nothing', async (_case, overrides, loc) => {
      const { organization, token } = await tenant();
      const { status, body } = await post(token, '/products/', {
        name: 'Widget',
        recurring_interval: null,
        prices: [{ amount_type: 'fixed', price_amount: 1000 }],
        ...overrides,
      });
      expect(status).toBe(422);
      expect(body.detail.map((issue) => issue.loc)).toContainEqual(loc);
      expect(await env.database.db.product.count({ where: { organizationId: organization.id } })).toBe(0);
      expect(await outbox(organization.id)).toEqual([]);
    });

    it("refuses another organization's meter, media file and custom field", async () => {
      const { token } = await tenant();
      const other = await createOrganization(env.database.db);
      const meter = await createMeter(env.database.db, other.id);
      const file = await createUploadedFile(env.database.db, other.id);
      const field = await createCustomField(env.database.db, other.id);
      const cases: [unknown, unknown[]][] = [
        [
          {
            recurring_interval: 'month',
            prices: [{ amount_type: 'metered_unit', meter_id: meter.id, unit_amount: 1 }],
          },
          ['body', 'prices', 0, 'meter_id'],
        ],
        [{ medias: [file.id] }, ['body', 'medias', 0]],
        [
          { attached_custom_fields: [{ custom_field_id: field.id, required: true }] },
          ['body', 'attached_custom_fields', 0, 'custom_field_id'],
        ],
      ];
      for (const [overrides, loc] of cases) {
        const { status, body } = await post(token, '/products/', {
          name: 'Widget',
          recurring_interval: null,
          prices: [{ amount_type: 'fixed', price_amount: 1000 }],
          ...(overrides as object),
        });
        expect(status).toBe(422);
        expect(body.detail[0]?.loc).toEqual(loc);
      }
    });

    it('refuses media that is not an uploaded product_media file', async () => {
      const { organization, token } = await tenant();
      const pending = await createUploadedFile(env.database.db, organization.id, { isUploaded: false });
      const download = await createUploadedFile(env.database.db, organization.id, {
        service: 'downloadable',
      });
      for (const id of [pending.id, download.id]) {
        const { status, body } = await post(token, '/products/', {
          name: 'Widget',
          recurring_interval: null,
          prices: [{ amount_type: 'free' }],
          medias: [id],
        });
        expect(status).toBe(422);
        expect(body.detail[0]?.loc).toEqual(['body', 'medias', 0]);
      }
    });
  });

  describe('products:get', () => {
    it('returns the product as it was created', async () => {
      const { polar } = await tenant();
      const product = await fixedMonthly(polar);
      expect(await polar.products.get({ id: product.id })).toEqual(product);
    });
  });

  describe('products:update', () => {
    it('keeps prices given by id, archives the others, adds new ones, and records product.updated', async () => {
      const { organization, polar } = await tenant();
      const meter = await createMeter(env.database.db, organization.id);
      const product = await polar.products.create({
        name: 'Team',
        recurringInterval: 'month',
        prices: [
          { amountType: 'fixed', priceAmount: 2000 },
          { amountType: 'metered_unit', meterId: meter.id, unitAmount: 1 },
        ],
      });
      const [fixed, metered] = product.prices;
      const updated = await polar.products.update({
        id: product.id,
        productUpdate: {
          name: 'Team plan',
          metadata: { plan: 'team' },
          prices: [{ id: metered!.id }, { amountType: 'fixed', priceAmount: 2500 }],
        },
      });
      expect(updated).toMatchObject({ name: 'Team plan', metadata: { plan: 'team' } });
      expect(updated.modifiedAt).toBeInstanceOf(Date);
      expect(updated.prices.map((price) => price.id)).toContain(metered!.id);
      expect(updated.prices.map((price) => price.id)).not.toContain(fixed!.id);
      expect(updated.prices).toContainEqual(
        expect.objectContaining({ amountType: 'fixed', priceAmount: 2500 }),
      );

      // The dropped price is archived, unchanged, and still readable: what was sold at it stays known.
      const archived = await env.database.db.productPrice.findUniqueOrThrow({ where: { id: fixed!.id } });
      expect(archived).toMatchObject({ isArchived: true, priceAmount: 2000 });
      const legacy = await getProductPrice(
        env.database.db,
        {
          kind: 'organization_access_token',
          tokenId: 't',
          organizationId: organization.id,
          createdById: null,
          scopes: [],
        },
        fixed!.id,
      );
      expect(legacy).toMatchObject({
        id: fixed!.id,
        is_archived: true,
        amount_type: 'fixed',
        price_amount: 2000,
      });

      const events = await outbox(organization.id);
      expect(events.map((event) => event.type)).toEqual(['product.created', 'product.updated']);
      expect(
        (WebhookProductUpdatedPayload$inboundSchema.parse(events[1]?.payload) as WebhookProductUpdatedPayload)
          .data,
      ).toEqual(updated);
    });

    it('archives and unarchives the product, leaving its prices', async () => {
      const { polar } = await tenant();
      const product = await fixedMonthly(polar);
      const archived = await polar.products.update({ id: product.id, productUpdate: { isArchived: true } });
      expect(archived.isArchived).toBe(true);
      expect(archived.prices).toEqual(product.prices);
      const restored = await polar.products.update({ id: product.id, productUpdate: { isArchived: false } });
      expect(restored.isArchived).toBe(false);
    });

    it('replaces media and custom fields in the given order, and clears the description', async () => {
      const { organization, polar } = await tenant();
      const [first, second] = [
        await createUploadedFile(env.database.db, organization.id),
        await createUploadedFile(env.database.db, organization.id),
      ];
      const [a, b] = [
        await createCustomField(env.database.db, organization.id),
        await createCustomField(env.database.db, organization.id),
      ];
      const product = await polar.products.create({
        name: 'Poster',
        description: 'Printed',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 1500 }],
        medias: [first!.id],
        attachedCustomFields: [{ customFieldId: a!.id, required: true }],
      });
      const updated = await polar.products.update({
        id: product.id,
        productUpdate: {
          description: null,
          medias: [second!.id, first!.id],
          attachedCustomFields: [
            { customFieldId: b!.id, required: false },
            { customFieldId: a!.id, required: true },
          ],
        },
      });
      expect(updated.description).toBeNull();
      expect(updated.medias.map((media) => media.id)).toEqual([second!.id, first!.id]);
      expect(
        updated.attachedCustomFields.map((field) => [field.customFieldId, field.order, field.required]),
      ).toEqual([
        [b!.id, 0, false],
        [a!.id, 1, true],
      ]);
    });

    it.each([
      [
        'an archived or foreign price id',
        (ctx: { archivedId: string }) => ({ prices: [{ id: ctx.archivedId }] }),
        ['body', 'prices', 0, 'id'],
      ],
      [
        'two static prices',
        () => ({ prices: [{ amount_type: 'free' }, { amount_type: 'fixed', price_amount: 900 }] }),
        ['body', 'prices', 1],
      ],
      [
        'a changed recurring interval',
        () => ({ recurring_interval: 'year' }),
        ['body', 'recurring_interval'],
      ],
      [
        'a custom maximum below its minimum',
        () => ({ prices: [{ amount_type: 'custom', minimum_amount: 900, maximum_amount: 500 }] }),
        ['body', 'prices', 0, 'maximum_amount'],
      ],
    ])('answers 422 for %s and changes nothing', async (_case, body, loc) => {
      const { organization, token, polar } = await tenant();
      const product = await fixedMonthly(polar);
      const replaced = await polar.products.update({
        id: product.id,
        productUpdate: { prices: [{ amountType: 'fixed', priceAmount: 3000 }] },
      });
      const before = await env.database.db.productPrice.findMany({
        where: { productId: product.id },
        orderBy: { createdAt: 'asc' },
      });
      const response = await post(
        token,
        `/products/${product.id}`,
        body({ archivedId: product.prices[0]!.id }),
        'PATCH',
      );
      expect(response.status).toBe(422);
      expect(response.body.detail[0]?.loc).toEqual(loc);
      expect(
        await env.database.db.productPrice.findMany({
          where: { productId: product.id },
          orderBy: { createdAt: 'asc' },
        }),
      ).toEqual(before);
      expect(await polar.products.get({ id: product.id })).toEqual(replaced);
      expect((await outbox(organization.id)).map((event) => event.type)).toEqual([
        'product.created',
        'product.updated',
      ]);
    });
  });

  describe('products:list', () => {
    it('filters by archive state, recurrence, name, id and organization, and sorts as asked', async () => {
      const { organization, polar } = await tenant();
      const other = await tenant();
      await fixedMonthly(other.polar, 'Not mine');
      const cheap = await polar.products.create({
        name: 'Cheap one-time',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 500 }],
      });
      const free = await polar.products.create({
        name: 'Free tier',
        recurringInterval: 'month',
        prices: [{ amountType: 'free' }],
      });
      const pricey = await fixedMonthly(polar, 'Pricey plan');
      await polar.products.update({ id: pricey.id, productUpdate: { isArchived: true } });

      const ids = async (request: Parameters<Polar['products']['list']>[0]) =>
        (await polar.products.list(request)).result.items.map((product) => product.id);

      expect(await ids({})).toEqual([pricey.id, free.id, cheap.id]);
      expect(await ids({ isArchived: false, sorting: ['name'] })).toEqual([cheap.id, free.id]);
      expect(await ids({ isRecurring: true, sorting: ['-name'] })).toEqual([pricey.id, free.id]);
      expect(await ids({ query: 'TIER' })).toEqual([free.id]);
      expect(await ids({ id: [cheap.id, pricey.id], sorting: ['created_at'] })).toEqual([
        cheap.id,
        pricey.id,
      ]);
      expect(await ids({ organizationId: organization.id, sorting: ['price_amount_type', 'name'] })).toEqual([
        free.id,
        cheap.id,
        pricey.id,
      ]);
      expect(await ids({ sorting: ['-price_amount'] })).toEqual([pricey.id, cheap.id, free.id]);
      expect(await ids({ benefitId: MISSING_ID })).toEqual([]);

      const page = await polar.products.list({ limit: 2, page: 2 });
      expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 2 });
      expect(page.result.items).toHaveLength(1);
    });

    it('answers 422 for an unknown sort field', async () => {
      const { token } = await tenant();
      const response = await fetch(`${env.stack.baseUrl}/v1/products/?sorting=price`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(422);
    });
  });

  describe('products:update_benefits', () => {
    it('sets the benefits in the given order, records product.updated, and filters products by benefit', async () => {
      const { polar, organization } = await tenant();
      const support = await polar.benefits.create({
        type: 'custom',
        description: 'Support',
        properties: { note: null },
      });
      const keys = await polar.benefits.create({
        type: 'license_keys',
        description: 'License key',
        properties: {},
      });
      const product = await fixedMonthly(polar);
      const other = await fixedMonthly(polar, 'Other plan');

      const updated = await polar.products.updateBenefits({
        id: product.id,
        productBenefitsUpdate: { benefits: [keys.id, support.id] },
      });
      expect(updated.benefits.map((benefit) => benefit.id)).toEqual([keys.id, support.id]);
      expect((await polar.products.get({ id: product.id })).benefits.map((benefit) => benefit.id)).toEqual([
        keys.id,
        support.id,
      ]);
      const withSupport = await polar.products.list({ benefitId: support.id });
      expect(withSupport.result.items.map((item) => item.id)).toEqual([product.id]);
      expect(other.benefits).toEqual([]);

      const cleared = await polar.products.updateBenefits({
        id: product.id,
        productBenefitsUpdate: { benefits: [] },
      });
      expect(cleared.benefits).toEqual([]);
      const events = (await outbox(organization.id)).filter((event) => event.type === 'product.updated');
      expect(events).toHaveLength(2);

      // A deleted benefit leaves the products that gave it.
      await polar.products.updateBenefits({
        id: product.id,
        productBenefitsUpdate: { benefits: [support.id] },
      });
      await polar.benefits.delete({ id: support.id });
      expect((await polar.products.get({ id: product.id })).benefits).toEqual([]);
    });

    it("refuses another organization's benefit and a repeated one", async () => {
      const { polar, token } = await tenant();
      const other = await tenant();
      const product = await fixedMonthly(polar);
      const mine = await polar.benefits.create({
        type: 'custom',
        description: 'Mine',
        properties: { note: null },
      });
      const theirs = await other.polar.benefits.create({
        type: 'custom',
        description: 'Theirs',
        properties: { note: null },
      });
      const refused = await post(token, `/products/${product.id}/benefits`, {
        benefits: [mine.id, theirs.id],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0]?.loc).toEqual(['body', 'benefits', 1]);
      const repeated = await post(token, `/products/${product.id}/benefits`, {
        benefits: [mine.id, mine.id],
      });
      expect(repeated.status).toBe(422);
      expect((await polar.products.get({ id: product.id })).benefits).toEqual([]);
    });
  });
});
