import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import {
  createAccessTokenRecord,
  createBenefit,
  createCheckout,
  createCheckoutLink,
  createCustomer,
  createCustomField,
  createDiscount,
  createMeter,
  createOrder,
  createSubscription,
  createProduct,
  createRefund,
  createUploadedFile,
  createWebhookDelivery,
  createWebhookEndpoint,
} from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';
import {
  documentedOperations,
  tenancyCoverage,
  tenancyScenario,
  type ForeignRefusal,
} from '../../test/tenancy.js';
import { insertEvents } from '../../domain/usage/repository.js';

// Every operation of a caller on /v1, in the shared tenancy scenario (test/tenancy.ts). The last test
// fails for an operation the OpenAPI document lists and this table does not.

/** Polar's answer to a body naming an organization the caller cannot use. */
const ORGANIZATION_ID_REFUSED: ForeignRefusal = { status: 422, loc: ['body', 'organization_id'] };
/** Webhook endpoints and access tokens answer as for an organization that does not exist. */
const ORGANIZATION_NOT_FOUND: ForeignRefusal = { status: 404, error: 'ResourceNotFound' };
// A license key check naming another organization finds no key, as for a key that does not exist.
const KEY_NOT_FOUND: ForeignRefusal = { status: 404, error: 'ResourceNotFound' };

const suffix = () => randomUUID().slice(0, 8);

/** A date (YYYY-MM-DD, UTC) some days from today. */
const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** Yesterday to tomorrow by day: today's seeded order is in it. */
const METRICS_RANGE = { start_date: daysFromToday(-1), end_date: daysFromToday(1), interval: 'day' };

const scenarios = [
  tenancyScenario({
    name: 'organizations',
    scope: 'organizations',
    seed: async (organization) => ({ id: organization.id }),
    stored: (db, seed) => db.organization.findUnique({ where: { id: seed.id } }),
    // A new organization belongs to no one yet: any new one counts.
    count: (db) => db.organization.count(),
    operations: [
      { operationId: 'organizations:list', method: 'get', path: '/organizations/' },
      {
        operationId: 'organizations:create',
        method: 'post',
        path: '/organizations/',
        body: () => ({ name: 'New shop', slug: `new-shop-${suffix()}` }),
        // Creating one's own organization is not a change to this one.
        canMembersCall: true,
      },
      { operationId: 'organizations:get', method: 'get', path: '/organizations/{id}' },
      {
        operationId: 'organizations:get_processor_status',
        method: 'get',
        path: '/organizations/{id}/processor-status',
        isForManagers: true,
      },
      {
        operationId: 'organizations:update',
        method: 'patch',
        path: '/organizations/{id}',
        body: () => ({ name: 'Renamed' }),
      },
    ],
  }),
  tenancyScenario({
    name: 'notification settings',
    scope: null,
    seed: async (organization) => ({ id: organization.id }),
    stored: (db, seed) =>
      db.member.findMany({
        where: { organizationId: seed.id },
        select: { id: true, newOrderEmail: true },
        orderBy: { id: 'asc' },
      }),
    operations: [
      {
        operationId: 'organizations:get_notification_settings',
        method: 'get',
        path: '/organizations/{id}/notification-settings',
      },
      {
        operationId: 'organizations:update_notification_settings',
        method: 'patch',
        path: '/organizations/{id}/notification-settings',
        body: () => ({ new_order_email: false }),
        // Each member's own choice, read-only members included.
        canMembersCall: true,
      },
    ],
  }),
  tenancyScenario({
    name: 'organization access tokens',
    scope: null,
    seed: async ({ db, id }) => ({
      id: (await createAccessTokenRecord(db, id, { comment: 'seeded' })).record.id,
    }),
    stored: (db, seed) => db.organizationAccessToken.findUnique({ where: { id: seed.id } }),
    count: (db, organizationId) => db.organizationAccessToken.count({ where: { organizationId } }),
    operations: [
      {
        operationId: 'organization_access_tokens:create',
        method: 'post',
        path: '/organization-access-tokens/',
        body: (_seed, organizationId) => ({ organization_id: organizationId, comment: 'CI' }),
        foreign: ORGANIZATION_NOT_FOUND,
      },
      {
        operationId: 'organization_access_tokens:list',
        method: 'get',
        path: '/organization-access-tokens/',
        isHiddenFromMembers: true,
      },
      {
        operationId: 'organization_access_tokens:update',
        method: 'patch',
        path: '/organization-access-tokens/{id}',
        body: () => ({ comment: 'renamed' }),
      },
      {
        operationId: 'organization_access_tokens:delete',
        method: 'delete',
        path: '/organization-access-tokens/{id}',
      },
    ],
  }),
  tenancyScenario({
    name: 'products',
    scope: 'products',
    seed: async ({ polar }) => {
      const product = await createProduct(polar);
      const benefit = await createBenefit(polar);
      await polar.products.updateBenefits({
        id: product.id,
        productBenefitsUpdate: { benefits: [benefit.id] },
      });
      return product;
    },
    stored: (db, product) =>
      db.product.findUnique({ where: { id: product.id }, include: { prices: true, benefits: true } }),
    count: (db, organizationId) => db.product.count({ where: { organizationId } }),
    operations: [
      { operationId: 'products:list', method: 'get', path: '/products/' },
      {
        operationId: 'products:create',
        method: 'post',
        path: '/products/',
        body: (_seed, organizationId) => ({
          name: 'Widget',
          recurring_interval: null,
          prices: [{ amount_type: 'free' }],
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      { operationId: 'products:get', method: 'get', path: '/products/{id}' },
      {
        operationId: 'products:update',
        method: 'patch',
        path: '/products/{id}',
        body: () => ({ name: 'Renamed' }),
      },
      {
        operationId: 'products:update_benefits',
        method: 'post',
        path: '/products/{id}/benefits',
        body: () => ({ benefits: [] }),
      },
      { operationId: 'products:delete', method: 'delete', path: '/products/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'benefits',
    scope: 'benefits',
    seed: ({ polar }) => createBenefit(polar),
    stored: (db, benefit) => db.benefit.findUnique({ where: { id: benefit.id } }),
    count: (db, organizationId) => db.benefit.count({ where: { organizationId } }),
    operations: [
      { operationId: 'benefits:list', method: 'get', path: '/benefits/' },
      {
        operationId: 'benefits:create',
        method: 'post',
        path: '/benefits/',
        body: (_seed, organizationId) => ({
          type: 'custom',
          description: 'Support',
          properties: { note: null },
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      { operationId: 'benefits:get', method: 'get', path: '/benefits/{id}' },
      {
        operationId: 'benefits:update',
        method: 'patch',
        path: '/benefits/{id}',
        body: () => ({ type: 'custom', description: 'Renamed' }),
      },
      { operationId: 'benefits:delete', method: 'delete', path: '/benefits/{id}' },
      { operationId: 'benefits:grants', method: 'get', path: '/benefits/{id}/grants' },
      { operationId: 'benefits:files', method: 'get', path: '/benefits/{id}/files' },
    ],
  }),
  tenancyScenario({
    name: 'benefit grants',
    scope: 'benefits',
    // A grant is made by a purchase, never by a request: seeded as the grant step writes one.
    seed: async ({ db, polar }) => {
      const customer = await createCustomer(polar);
      const benefit = await createBenefit(polar);
      return db.benefitGrant.create({
        data: { benefitId: benefit.id, customerId: customer.id, grantedAt: new Date() },
      });
    },
    stored: (db, grant) => db.benefitGrant.findUnique({ where: { id: grant.id } }),
    count: (db, organizationId) => db.benefitGrant.count({ where: { benefit: { organizationId } } }),
    operations: [{ operationId: 'benefit-grants:list', method: 'get', path: '/benefit-grants/' }],
  }),
  tenancyScenario({
    name: 'custom fields',
    scope: 'custom_fields',
    seed: ({ db, id }) => createCustomField(db, id),
    stored: (db, field) => db.customField.findUnique({ where: { id: field.id } }),
    count: (db, organizationId) => db.customField.count({ where: { organizationId } }),
    operations: [
      { operationId: 'custom-fields:list', method: 'get', path: '/custom-fields/' },
      {
        operationId: 'custom-fields:create',
        method: 'post',
        path: '/custom-fields/',
        body: (_seed, organizationId) => ({
          type: 'text',
          slug: `field-${suffix()}`,
          name: 'Field',
          properties: {},
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      { operationId: 'custom-fields:get', method: 'get', path: '/custom-fields/{id}' },
      {
        operationId: 'custom-fields:update',
        method: 'patch',
        path: '/custom-fields/{id}',
        body: () => ({ type: 'text', name: 'Renamed' }),
      },
      { operationId: 'custom-fields:delete', method: 'delete', path: '/custom-fields/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'meters',
    scope: 'meters',
    seed: ({ db, id }) => createMeter(db, id),
    stored: (db, meter) => db.meter.findUnique({ where: { id: meter.id } }),
    count: (db, organizationId) => db.meter.count({ where: { organizationId } }),
    operations: [
      { operationId: 'meters:list', method: 'get', path: '/meters/' },
      {
        operationId: 'meters:create',
        method: 'post',
        path: '/meters/',
        body: (_seed, organizationId) => ({
          name: 'Requests',
          filter: { conjunction: 'and', clauses: [] },
          aggregation: { func: 'count' },
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      { operationId: 'meters:get', method: 'get', path: '/meters/{id}' },
      {
        operationId: 'meters:update',
        method: 'patch',
        path: '/meters/{id}',
        body: () => ({ name: 'Renamed' }),
      },
      {
        operationId: 'meters:quantities',
        method: 'get',
        path: '/meters/{id}/quantities',
        query: {
          start_timestamp: '2026-01-01T00:00:00Z',
          end_timestamp: '2026-01-02T00:00:00Z',
          interval: 'day',
        },
      },
    ],
  }),
  tenancyScenario({
    name: 'events',
    scope: 'events',
    seed: async ({ db, id, polar }) => {
      const customer = await createCustomer(polar, { externalId: `crm-${suffix()}` });
      const name = `usage-${suffix()}`;
      await insertEvents(db.sql, [
        {
          organizationId: id,
          name,
          source: 'user',
          timestamp: new Date(),
          customerId: customer.id,
          externalCustomerId: null,
          externalId: null,
          metadata: {},
        },
      ]);
      const event = await db.event.findFirstOrThrow({ where: { organizationId: id } });
      return { id: event.id, name, customerId: customer.id };
    },
    stored: (db, event) => db.event.findUnique({ where: { id: event.id } }),
    count: (db, organizationId) => db.event.count({ where: { organizationId } }),
    operations: [
      { operationId: 'events:list', method: 'get', path: '/events/' },
      {
        operationId: 'events:list_names',
        method: 'get',
        path: '/events/names',
        listed: (event) => event.name,
        listedBy: 'name',
      },
      {
        operationId: 'events:ingest',
        method: 'post',
        path: '/events/ingest',
        body: (event, organizationId) => ({
          events: [{ name: 'api_call', customer_id: event.customerId, organization_id: organizationId }],
        }),
        foreign: { status: 422, loc: ['body', 'events', 0, 'organization_id'] },
      },
      { operationId: 'events:get', method: 'get', path: '/events/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'customer meters',
    scope: 'customer_meters',
    // Written by the refresher, never by a request: seeded as it would write one.
    seed: async ({ db, id, polar }) => {
      const customer = await createCustomer(polar);
      const meter = await createMeter(db, id);
      return db.customerMeter.create({
        data: {
          organizationId: id,
          customerId: customer.id,
          meterId: meter.id,
          consumedUnits: 3,
          creditedUnits: 10,
          balance: 7,
        },
      });
    },
    stored: (db, meter) => db.customerMeter.findUnique({ where: { id: meter.id } }),
    count: (db, organizationId) => db.customerMeter.count({ where: { organizationId } }),
    operations: [
      { operationId: 'customer_meters:list', method: 'get', path: '/customer-meters/' },
      { operationId: 'customer_meters:get', method: 'get', path: '/customer-meters/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'customer sessions',
    scope: 'customer_sessions',
    seed: async ({ polar }) => createCustomer(polar),
    stored: (db, customer) => db.customer.findUnique({ where: { id: customer.id } }),
    count: (db, organizationId) => db.customerSession.count({ where: { organizationId } }),
    operations: [
      {
        operationId: 'customer-sessions:create',
        method: 'post',
        path: '/customer-sessions/',
        // The organization is the customer's: another organization's customer does not exist.
        body: (customer) => ({ customer_id: customer.id }),
        foreign: { status: 422, loc: ['body', 'customer_id'] },
      },
    ],
  }),
  tenancyScenario({
    name: 'license keys',
    scope: 'license_keys',
    // Made by a license_keys grant, never by a request: seeded as the grant step writes one.
    seed: async ({ db, id, polar }) => {
      const customer = await createCustomer(polar);
      const benefit = await db.benefit.create({
        data: { organizationId: id, type: 'license_keys', description: 'License', properties: {} },
      });
      const grant = await db.benefitGrant.create({
        data: { benefitId: benefit.id, customerId: customer.id, grantedAt: new Date() },
      });
      const key = await db.licenseKey.create({
        data: {
          organizationId: id,
          customerId: customer.id,
          benefitId: benefit.id,
          grantId: grant.id,
          key: `KEY-${suffix()}`,
          status: 'granted',
        },
      });
      const activation = await db.licenseKeyActivation.create({
        data: { licenseKeyId: key.id, label: 'laptop' },
      });
      return { ...key, activationId: activation.id };
    },
    stored: (db, key) => db.licenseKey.findUnique({ where: { id: key.id } }),
    count: (db, organizationId) => db.licenseKey.count({ where: { organizationId } }),
    operations: [
      { operationId: 'license_keys:list', method: 'get', path: '/license-keys/' },
      {
        operationId: 'license_keys:validate',
        method: 'post',
        path: '/license-keys/validate',
        body: (key, organizationId) => ({ key: key.key, organization_id: organizationId }),
        allowedStatus: 200,
        foreign: KEY_NOT_FOUND,
      },
      {
        operationId: 'license_keys:activate',
        method: 'post',
        path: '/license-keys/activate',
        body: (key, organizationId) => ({ key: key.key, organization_id: organizationId, label: 'desk' }),
        // The seeded benefit allows no activations: the owner is refused for that, not for access.
        allowedStatus: 403,
        foreign: KEY_NOT_FOUND,
      },
      {
        operationId: 'license_keys:deactivate',
        method: 'post',
        path: '/license-keys/deactivate',
        body: (key, organizationId) => ({
          key: key.key,
          organization_id: organizationId,
          activation_id: key.activationId,
        }),
        allowedStatus: 204,
        foreign: KEY_NOT_FOUND,
      },
      { operationId: 'license_keys:get', method: 'get', path: '/license-keys/{id}' },
      {
        operationId: 'license_keys:update',
        method: 'patch',
        path: '/license-keys/{id}',
        body: () => ({ status: 'disabled' }),
      },
      {
        operationId: 'license_keys:get_activation',
        method: 'get',
        path: '/license-keys/{id}/activations/{activation_id}',
        params: (key) => ({ id: key.id, activation_id: key.activationId }),
      },
    ],
  }),
  tenancyScenario({
    name: 'customer seats',
    scope: 'customer_seats',
    // A plan with seats and one seat given, as the assign writes it (the seat operations read the
    // plan's `seats`, not its price).
    seed: async ({ db, id, polar }) => {
      const subscription = await createSubscription(db, polar);
      await db.subscription.update({ where: { id: subscription.id }, data: { seats: 20 } });
      const holder = await createCustomer(polar);
      const seat = await db.customerSeat.create({
        data: {
          organizationId: id,
          subscriptionId: subscription.id,
          status: 'pending',
          customerId: holder.id,
          email: holder.email,
          invitationTokenHash: `seed-${suffix()}`,
          invitationTokenExpiresAt: new Date(Date.now() + 24 * 3_600_000),
        },
      });
      return { id: seat.id, subscriptionId: subscription.id };
    },
    stored: (db, seat) => db.customerSeat.findUnique({ where: { id: seat.id } }),
    count: (db, organizationId) => db.customerSeat.count({ where: { organizationId } }),
    operations: [
      {
        operationId: 'customer-seats:list_seats',
        method: 'get',
        path: '/customer-seats',
        query: (seat) => ({ subscription_id: seat.subscriptionId }),
        report: (answer) => z.object({ seats: z.array(z.unknown()) }).parse(answer).seats.length,
      },
      {
        operationId: 'customer-seats:assign_seat',
        method: 'post',
        path: '/customer-seats',
        body: (seat) => ({ subscription_id: seat.subscriptionId, email: `seat-${suffix()}@example.test` }),
        foreign: { status: 404, error: 'ResourceNotFound' },
      },
      {
        operationId: 'customer-seats:resend_invitation',
        method: 'post',
        path: '/customer-seats/{seat_id}/resend',
        params: (seat) => ({ seat_id: seat.id }),
      },
      {
        operationId: 'customer-seats:revoke_seat',
        method: 'delete',
        path: '/customer-seats/{seat_id}',
        params: (seat) => ({ seat_id: seat.id }),
      },
    ],
  }),
  tenancyScenario({
    name: 'customers',
    scope: 'customers',
    seed: async ({ polar }) => {
      const externalId = `crm-${suffix()}`;
      return { ...(await createCustomer(polar, { externalId })), externalId };
    },
    stored: (db, customer) => db.customer.findUnique({ where: { id: customer.id } }),
    count: (db, organizationId) => db.customer.count({ where: { organizationId } }),
    operations: [
      { operationId: 'customers:list', method: 'get', path: '/customers/' },
      {
        operationId: 'customers:export',
        method: 'get',
        path: '/customers/export',
        exported: (customer) => customer.email,
      },
      { operationId: 'customers:summary', method: 'get', path: '/customers/{id}/summary' },
      { operationId: 'customers:timeline', method: 'get', path: '/customers/{id}/timeline' },
      {
        operationId: 'customers:list_payment_methods',
        method: 'get',
        path: '/customers/{id}/payment-methods',
      },
      {
        operationId: 'customers:create',
        method: 'post',
        path: '/customers/',
        body: (_seed, organizationId) => ({
          email: `buyer-${suffix()}@example.test`,
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      ...(['id', 'external'] as const).flatMap((by) => {
        const path = by === 'id' ? '/customers/{id}' : '/customers/external/{external_id}';
        const operationSuffix = by === 'id' ? '' : '_external';
        const params = (customer: { id: string; externalId: string }): Record<string, string> =>
          by === 'id' ? { id: customer.id } : { external_id: customer.externalId };
        return [
          { operationId: `customers:get${operationSuffix}`, method: 'get', path, params },
          {
            operationId: `customers:update${operationSuffix}`,
            method: 'patch',
            path,
            params,
            body: () => ({ name: 'Renamed' }),
          },
          { operationId: `customers:delete${operationSuffix}`, method: 'delete', path, params },
          {
            operationId: `customers:get_state${operationSuffix}`,
            method: 'get',
            path: `${path}/state`,
            params,
          },
          ...(by === 'external'
            ? [
                {
                  operationId: 'customers:list_payment_methods_external',
                  method: 'get',
                  path: `${path}/payment-methods`,
                  params,
                } as const,
              ]
            : []),
        ] as const;
      }),
    ],
  }),
  tenancyScenario({
    name: 'discounts',
    scope: 'discounts',
    seed: ({ polar }) => createDiscount(polar),
    stored: (db, discount) => db.discount.findUnique({ where: { id: discount.id } }),
    count: (db, organizationId) => db.discount.count({ where: { organizationId } }),
    operations: [
      { operationId: 'discounts:list', method: 'get', path: '/discounts/' },
      {
        operationId: 'discounts:create',
        method: 'post',
        path: '/discounts/',
        body: (_seed, organizationId) => ({
          type: 'percentage',
          duration: 'once',
          basis_points: 1000,
          name: 'Ten',
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      { operationId: 'discounts:get', method: 'get', path: '/discounts/{id}' },
      {
        operationId: 'discounts:update',
        method: 'patch',
        path: '/discounts/{id}',
        body: () => ({ name: 'Renamed' }),
      },
      { operationId: 'discounts:delete', method: 'delete', path: '/discounts/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'checkout links',
    scope: 'checkout_links',
    seed: async ({ polar }) => {
      const product = await createProduct(polar);
      return { id: (await createCheckoutLink(polar, product.id)).id, productId: product.id };
    },
    stored: (db, link) => db.checkoutLink.findUnique({ where: { id: link.id }, include: { products: true } }),
    count: (db, organizationId) => db.checkoutLink.count({ where: { organizationId } }),
    operations: [
      { operationId: 'checkout-links:list', method: 'get', path: '/checkout-links/' },
      {
        operationId: 'checkout-links:create',
        method: 'post',
        path: '/checkout-links/',
        // The organization is the product's: another organization's product is not found.
        body: (link) => ({ product_id: link.productId }),
        foreign: { status: 422, loc: ['body', 'product_id'] },
      },
      { operationId: 'checkout-links:get', method: 'get', path: '/checkout-links/{id}' },
      {
        operationId: 'checkout-links:update',
        method: 'patch',
        path: '/checkout-links/{id}',
        body: () => ({ label: 'Renamed' }),
      },
      { operationId: 'checkout-links:delete', method: 'delete', path: '/checkout-links/{id}' },
      { operationId: 'checkout-links:stats', method: 'get', path: '/checkout-links/{id}/stats' },
    ],
  }),
  tenancyScenario({
    name: 'files',
    scope: 'files',
    seed: ({ db, id }) => createUploadedFile(db, id),
    stored: (db, file) => db.file.findUnique({ where: { id: file.id } }),
    count: (db, organizationId) => db.file.count({ where: { organizationId } }),
    operations: [
      { operationId: 'files:list', method: 'get', path: '/files/' },
      {
        operationId: 'files:create',
        method: 'post',
        path: '/files/',
        body: (_seed, organizationId) => ({
          organization_id: organizationId,
          service: 'downloadable',
          name: 'a.zip',
          mime_type: 'application/zip',
          size: 1,
          upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 1 }] },
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      {
        operationId: 'files:uploaded',
        method: 'post',
        path: '/files/{id}/uploaded',
        body: (file) => ({
          id: file.uploadId,
          path: file.path,
          parts: [{ number: 1, checksum_etag: 'etag', checksum_sha256_base64: null }],
        }),
      },
      {
        operationId: 'files:update',
        method: 'patch',
        path: '/files/{id}',
        body: () => ({ name: 'renamed.png' }),
      },
      { operationId: 'files:delete', method: 'delete', path: '/files/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'webhook endpoints',
    scope: 'webhooks',
    seed: ({ db, id }) => createWebhookEndpoint(db, id),
    stored: (db, endpoint) => db.webhookEndpoint.findUnique({ where: { id: endpoint.id } }),
    count: (db, organizationId) => db.webhookEndpoint.count({ where: { organizationId } }),
    operations: [
      { operationId: 'webhooks:list_webhook_endpoints', method: 'get', path: '/webhooks/endpoints' },
      {
        operationId: 'webhooks:create_webhook_endpoint',
        method: 'post',
        path: '/webhooks/endpoints',
        body: (_seed, organizationId) => ({
          url: 'https://hooks.example.test/new',
          format: 'raw',
          events: [],
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_NOT_FOUND,
      },
      { operationId: 'webhooks:get_webhook_endpoint', method: 'get', path: '/webhooks/endpoints/{id}' },
      {
        operationId: 'webhooks:update_webhook_endpoint',
        method: 'patch',
        path: '/webhooks/endpoints/{id}',
        body: () => ({ url: 'https://hooks.example.test/renamed' }),
      },
      {
        operationId: 'webhooks:reset_webhook_endpoint_secret',
        method: 'patch',
        path: '/webhooks/endpoints/{id}/secret',
      },
      {
        operationId: 'webhooks:list_webhook_endpoint_health',
        method: 'get',
        path: '/webhooks/health',
        listedBy: 'endpoint_id',
      },
      {
        operationId: 'webhooks:get_webhook_endpoint_health',
        method: 'get',
        path: '/webhooks/endpoints/{id}/health',
      },
      {
        operationId: 'webhooks:list_webhook_endpoint_events',
        method: 'get',
        path: '/webhooks/endpoints/{id}/events',
      },
      {
        operationId: 'webhooks:send_test_webhook_event',
        method: 'post',
        path: '/webhooks/endpoints/{id}/test',
        allowedStatus: 202,
      },
      { operationId: 'webhooks:delete_webhook_endpoint', method: 'delete', path: '/webhooks/endpoints/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'webhook events and deliveries',
    scope: 'webhooks',
    seed: async ({ db, id }) => {
      const { event, delivery } = await createWebhookDelivery(db, id);
      return { id: event.id, deliveryId: delivery.id };
    },
    stored: (db, event) =>
      db.webhookEvent.findUnique({ where: { id: event.id }, include: { deliveries: true } }),
    operations: [
      {
        operationId: 'webhooks:list_webhook_deliveries',
        method: 'get',
        path: '/webhooks/deliveries',
        listed: (event) => event.deliveryId,
      },
      {
        operationId: 'webhooks:redeliver_webhook_event',
        method: 'post',
        path: '/webhooks/events/{id}/redeliver',
      },
    ],
  }),
  tenancyScenario({
    name: 'checkouts',
    scope: 'checkouts',
    seed: async ({ polar }) => {
      const product = await createProduct(polar);
      return { id: (await createCheckout(polar, product.id)).id, productId: product.id };
    },
    stored: (db, checkout) => db.checkout.findUnique({ where: { id: checkout.id } }),
    count: (db, organizationId) => db.checkout.count({ where: { organizationId } }),
    operations: [
      { operationId: 'checkouts:list', method: 'get', path: '/checkouts/' },
      {
        operationId: 'checkouts:create',
        method: 'post',
        path: '/checkouts/',
        // The organization is the product's: another organization's product is not found.
        body: (checkout) => ({ product_id: checkout.productId }),
        foreign: { status: 422, loc: ['body', 'product_id'] },
      },
      { operationId: 'checkouts:get', method: 'get', path: '/checkouts/{id}' },
      {
        operationId: 'checkouts:update',
        method: 'patch',
        path: '/checkouts/{id}',
        body: () => ({ metadata: { changed: 'yes' } }),
      },
      {
        operationId: 'checkouts:export',
        method: 'get',
        path: '/checkouts/export',
        exported: (checkout) => checkout.id,
      },
    ],
  }),
  tenancyScenario({
    name: 'orders',
    scope: 'orders',
    seed: async ({ db, polar }) => {
      const order = await createOrder(db, polar);
      // Generated, so that reading the invoice's URL answers 200 to whoever may read the order.
      await polar.orders.generateInvoice({ id: order.id });
      return order;
    },
    stored: (db, order) => db.order.findUnique({ where: { id: order.id }, include: { items: true } }),
    count: (db, organizationId) => db.order.count({ where: { organizationId } }),
    operations: [
      { operationId: 'orders:list', method: 'get', path: '/orders/' },
      { operationId: 'orders:get', method: 'get', path: '/orders/{id}' },
      {
        operationId: 'orders:update',
        method: 'patch',
        path: '/orders/{id}',
        body: () => ({ billing_name: 'Renamed', billing_address: { country: 'FR' } }),
      },
      {
        operationId: 'orders:create',
        method: 'post',
        path: '/orders/',
        body: (order, organizationId) => ({
          customer_id: order.customerId,
          product_id: order.productId,
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      { operationId: 'orders:finalize', method: 'post', path: '/orders/{id}/finalize', body: () => ({}) },
      { operationId: 'orders:generate_invoice', method: 'post', path: '/orders/{id}/invoice' },
      { operationId: 'orders:invoice', method: 'get', path: '/orders/{id}/invoice' },
      { operationId: 'orders:timeline', method: 'get', path: '/orders/{id}/timeline' },
      { operationId: 'orders:receipt', method: 'get', path: '/orders/{id}/receipt' },
      { operationId: 'orders:export', method: 'get', path: '/orders/export', exported: (order) => order.id },
    ],
  }),
  tenancyScenario({
    name: 'subscriptions',
    scope: 'subscriptions',
    seed: ({ db, polar }) => createSubscription(db, polar),
    stored: (db, subscription) =>
      db.subscription.findUnique({ where: { id: subscription.id }, include: { prices: true } }),
    count: (db, organizationId) => db.subscription.count({ where: { organizationId } }),
    operations: [
      { operationId: 'subscriptions:list', method: 'get', path: '/subscriptions/' },
      { operationId: 'subscriptions:get', method: 'get', path: '/subscriptions/{id}' },
      {
        operationId: 'subscriptions:update',
        method: 'patch',
        path: '/subscriptions/{id}',
        body: () => ({ cancel_at_period_end: true, customer_cancellation_reason: 'too_expensive' }),
      },
      { operationId: 'subscriptions:revoke', method: 'delete', path: '/subscriptions/{id}' },
      {
        operationId: 'subscriptions:create',
        method: 'post',
        path: '/subscriptions/',
        // Another organization's product and customer do not exist: both are said, as Polar does.
        body: (subscription) => ({
          product_id: subscription.productId,
          customer_id: subscription.customerId,
        }),
        foreign: { status: 422, loc: ['body', 'product_id'], alsoAt: [['body', 'customer_id']] },
      },
      {
        operationId: 'subscriptions:proration_preview',
        method: 'post',
        path: '/subscriptions/{id}/proration-preview',
        body: (subscription) => ({ product_id: subscription.productId }),
      },
      {
        operationId: 'subscriptions:payment_attempts',
        method: 'get',
        path: '/subscriptions/{id}/payment-attempts',
      },
      {
        operationId: 'subscriptions:upcoming_invoice',
        method: 'get',
        path: '/subscriptions/{id}/upcoming-invoice',
      },
      {
        operationId: 'subscriptions:export',
        method: 'get',
        path: '/subscriptions/export',
        exported: (subscription) => subscription.email,
      },
    ],
  }),
  tenancyScenario({
    name: 'test clocks',
    scope: 'subscriptions',
    seed: async ({ db, id, polar }) => {
      const clock = await db.testClock.create({
        data: { organizationId: id, name: 'Seeded clock', frozenTime: new Date('2026-01-01T00:00:00Z') },
      });
      return { id: clock.id, customerId: (await createCustomer(polar)).id };
    },
    stored: (db, clock) => db.testClock.findUnique({ where: { id: clock.id }, include: { customers: true } }),
    count: (db, organizationId) => db.testClock.count({ where: { organizationId } }),
    operations: [
      { operationId: 'test_clocks:list', method: 'get', path: '/test-clocks/' },
      {
        operationId: 'test_clocks:create',
        method: 'post',
        path: '/test-clocks/',
        body: (_seed, organizationId) => ({
          frozen_time: '2026-06-01T00:00:00Z',
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      { operationId: 'test_clocks:get', method: 'get', path: '/test-clocks/{id}' },
      {
        operationId: 'test_clocks:advance',
        method: 'post',
        path: '/test-clocks/{id}/advance',
        body: () => ({ frozen_time: '2026-02-01T00:00:00Z' }),
      },
      {
        operationId: 'test_clocks:attach_customer',
        method: 'post',
        path: '/test-clocks/{id}/customers',
        body: (clock) => ({ customer_id: clock.customerId }),
      },
      { operationId: 'test_clocks:delete', method: 'delete', path: '/test-clocks/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'refunds',
    scope: 'refunds',
    seed: async ({ db, polar }) => {
      const order = await createOrder(db, polar);
      return { id: (await createRefund(polar, order.id)).id, orderId: order.id };
    },
    stored: (db, refund) => db.refund.findUnique({ where: { id: refund.id } }),
    count: (db, organizationId) => db.refund.count({ where: { organizationId } }),
    operations: [
      { operationId: 'refunds:list', method: 'get', path: '/refunds/' },
      {
        operationId: 'refunds:create',
        method: 'post',
        path: '/refunds/',
        // The organization is the order's: another organization's order is not found.
        body: (refund) => ({ order_id: refund.orderId, reason: 'other', amount: 1 }),
        foreign: { status: 422, loc: ['body', 'order_id'] },
      },
    ],
  }),
  tenancyScenario({
    name: 'payments',
    scope: 'payments',
    // A paid order's try, as the checkout's charge records it.
    seed: async ({ db, polar }) => {
      const order = await createOrder(db, polar);
      return db.payment.create({
        data: {
          organizationId: order.organizationId,
          requestKey: `checkout:${order.checkoutId}:attempt:1`,
          processor: 'sandbox',
          processorPaymentId: `pi_sbx_${suffix()}`,
          status: 'succeeded',
          amount: order.totalAmount,
          currency: order.currency,
          cardBrand: 'visa',
          cardLast4: '4242',
          checkoutId: order.checkoutId,
          orderId: order.id,
          customerId: order.customerId,
          createdAt: new Date(),
        },
      });
    },
    stored: (db, payment) => db.payment.findUnique({ where: { id: payment.id } }),
    count: (db, organizationId) => db.payment.count({ where: { organizationId } }),
    operations: [
      { operationId: 'payments:list', method: 'get', path: '/payments/' },
      { operationId: 'payments:get', method: 'get', path: '/payments/{id}' },
    ],
  }),
  tenancyScenario({
    name: 'disputes',
    scope: 'disputes',
    // An open dispute of a paid order's payment, as the processor's dispute event records it.
    seed: async ({ db, polar }) => {
      const order = await createOrder(db, polar);
      const processorPaymentId = `pi_sbx_${suffix()}`;
      const payment = await db.payment.create({
        data: {
          organizationId: order.organizationId,
          requestKey: `checkout:${order.checkoutId}:attempt:1`,
          processor: 'sandbox',
          processorPaymentId,
          status: 'succeeded',
          amount: order.totalAmount,
          currency: order.currency,
          checkoutId: order.checkoutId,
          orderId: order.id,
          customerId: order.customerId,
          createdAt: new Date(),
        },
      });
      return db.dispute.create({
        data: {
          organizationId: order.organizationId,
          orderId: order.id,
          paymentId: payment.id,
          processor: 'sandbox',
          processorDisputeId: processorPaymentId.replace('pi_', 'dp_'),
          status: 'needs_response',
          amount: order.totalAmount,
          taxAmount: 0,
          currency: order.currency,
          createdAt: new Date(),
        },
      });
    },
    stored: (db, dispute) => db.dispute.findUnique({ where: { id: dispute.id } }),
    count: (db, organizationId) => db.dispute.count({ where: { organizationId } }),
    operations: [
      { operationId: 'disputes:list', method: 'get', path: '/disputes/' },
      { operationId: 'disputes:get', method: 'get', path: '/disputes/{id}' },
      { operationId: 'disputes:accept', method: 'post', path: '/disputes/{id}/accept' },
    ],
  }),
  tenancyScenario({
    name: 'metrics',
    scope: 'metrics',
    // One paid order today, which the metrics of its organization count and no other's do, and a
    // saved dashboard.
    seed: async ({ db, id, polar }) => {
      const order = await createOrder(db, polar);
      const dashboard = await db.metricDashboard.create({
        data: { organizationId: id, name: 'Seeded dashboard', metrics: ['revenue', 'orders'] },
      });
      return { id: order.id, dashboardId: dashboard.id };
    },
    stored: async (db, seed) => ({
      order: await db.order.findUnique({ where: { id: seed.id } }),
      dashboard: await db.metricDashboard.findUnique({ where: { id: seed.dashboardId } }),
    }),
    count: (db, organizationId) => db.metricDashboard.count({ where: { organizationId } }),
    operations: [
      {
        operationId: 'metrics:get',
        method: 'get',
        path: '/metrics/',
        query: METRICS_RANGE,
        report: (answer) =>
          z.object({ totals: z.object({ orders: z.number() }) }).parse(answer).totals.orders,
      },
      {
        operationId: 'metrics:export',
        method: 'get',
        path: '/metrics/export',
        query: METRICS_RANGE,
        // The orders column's sum over the periods.
        report: (answer) => {
          const [header = [], ...lines] = z
            .string()
            .parse(answer)
            .trim()
            .split('\r\n')
            .map((line) => line.split(','));
          const column = header.indexOf('orders');
          return lines.reduce((total, line) => total + Number(line[column]), 0);
        },
      },
      { operationId: 'metrics:limits', method: 'get', path: '/metrics/limits', report: () => null },
      {
        operationId: 'metrics:list_dashboards',
        method: 'get',
        path: '/metrics/dashboards',
        // A plain array of the organization's dashboards: the seed's alone.
        report: (answer) => z.array(z.object({ id: z.uuid() })).parse(answer).length,
      },
      {
        operationId: 'metrics:create_dashboard',
        method: 'post',
        path: '/metrics/dashboards',
        body: (_seed, organizationId) => ({
          name: 'Revenue',
          metrics: ['revenue'],
          organization_id: organizationId,
        }),
        foreign: ORGANIZATION_ID_REFUSED,
      },
      {
        operationId: 'metrics:get_dashboard',
        method: 'get',
        path: '/metrics/dashboards/{id}',
        params: (seed) => ({ id: seed.dashboardId }),
      },
      {
        operationId: 'metrics:update_dashboard',
        method: 'patch',
        path: '/metrics/dashboards/{id}',
        params: (seed) => ({ id: seed.dashboardId }),
        body: () => ({ name: 'Renamed', metrics: ['monthly_recurring_revenue'] }),
      },
      {
        operationId: 'metrics:delete_dashboard',
        method: 'delete',
        path: '/metrics/dashboards/{id}',
        params: (seed) => ({ id: seed.dashboardId }),
      },
    ],
  }),
  tenancyScenario({
    name: 'event types',
    scope: 'events',
    // A user event of a name of its own, whose ingestion made the name's event type.
    seed: async ({ db, id }) => {
      const name = `typed-${suffix()}`;
      await insertEvents(db.sql, [
        {
          organizationId: id,
          name,
          source: 'user',
          timestamp: new Date(),
          customerId: null,
          externalCustomerId: `crm-${suffix()}`,
          externalId: null,
          metadata: {},
        },
      ]);
      const type = await db.eventType.findUniqueOrThrow({
        where: { organizationId_name: { organizationId: id, name } },
      });
      return { id: type.id };
    },
    stored: (db, type) => db.eventType.findUnique({ where: { id: type.id } }),
    operations: [
      { operationId: 'event-types:list', method: 'get', path: '/event-types/' },
      {
        operationId: 'event-types:update',
        method: 'patch',
        path: '/event-types/{id}',
        body: () => ({ label: 'API calls' }),
      },
    ],
  }),
  tenancyScenario({
    name: 'search',
    scope: 'customers',
    // Both organizations have one customer whose email holds the searched text: ours finds its own.
    seed: async ({ polar }) => createCustomer(polar, { email: `searched-${suffix()}@example.test` }),
    stored: (db, customer) => db.customer.findUnique({ where: { id: customer.id } }),
    operations: [
      {
        operationId: 'search:search',
        method: 'get',
        path: '/search/',
        query: { query: 'searched-' },
        report: (answer) => z.object({ customers: z.array(z.unknown()) }).parse(answer).customers.length,
      },
    ],
  }),
];

describe('/v1 tenancy: foreign organizations, scopes, roles, anonymous callers', () => {
  const env = useTestStack({ withWorker: false });

  for (const scenario of scenarios) scenario.define(env);

  it('covers every operation of a caller that /v1/openapi.json documents, and only those', async () => {
    const coverage = tenancyCoverage(await documentedOperations(env.stack.baseUrl), scenarios);
    expect(coverage).toEqual({ uncovered: [], unknown: [], repeated: [], foreignUnchecked: [] });
  });
});
