// Polar's Python SDK as the oracle of the dated versions: test/polar-python/scenario.py drives the
// SDK's operations with `from polar.v<version> import Polar`, whose strict models refuse a missing
// required field, a wrong type or an unknown enum value, once per version against this stack.
// EXPECTED_PASSING lists what must pass; the operations that fail today, and why, are in
// docs/api-versions.md ("Python SDK 1.0.2 conformance"): move one here when its shapes are done.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { requireTestEnv } from '../../test/env.js';
import { eventually } from '../../test/eventually.js';
import {
  buyInSandbox,
  createAccessToken,
  createOrder,
  createOrganization,
  createSubscription,
  createUploadedFile,
  createWebhookDelivery,
} from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';
import { projectRoot, resolveDataDir } from '../../scripts/lib/paths.js';
import { API_VERSIONS, type ApiVersion } from '../../domain/platform/api-versions.js';

const execFileAsync = promisify(execFile);
const SCENARIO = path.join(projectRoot, 'test', 'polar-python', 'scenario.py');
const SCENARIO_TIMEOUT_MS = 120_000;
/** Each version's whole report, every failure's first error included, for whoever moves one along. */
const reportFile = (version: ApiVersion) =>
  path.join(resolveDataDir(process.env.DATA_DIR ?? '.data'), 'logs', `polar-python-${version}.json`);

/** What passes in every version today (the scenario's names: `<service>.<method>`). */
const PASSING_IN_EVERY_VERSION = [
  'organizations.list',
  'organizations.get',
  'organizations.update',
  'webhooks.create_webhook_endpoint',
  'webhooks.list_webhook_endpoints',
  'webhooks.get_webhook_endpoint',
  'webhooks.update_webhook_endpoint',
  'webhooks.reset_webhook_endpoint_secret',
  'webhooks.list_webhook_deliveries',
  'webhooks.redeliver_webhook_event',
  'webhooks.delete_webhook_endpoint',
  'custom_fields.create',
  'custom_fields.list',
  'custom_fields.get',
  'custom_fields.update',
  'custom_fields.delete',
  'files.create',
  'files.uploaded',
  'files.update',
  'files.list',
  'files.delete',
  'meters.create',
  'meters.list',
  'meters.get',
  'meters.update',
  'meters.quantities',
  'events.ingest',
  'events.list',
  'events.get',
  'events.list_names',
  'customer_meters.list',
  'customer_meters.get',
  'benefits.create',
  'benefits.list',
  'benefits.get',
  'benefits.update',
  'benefits.grants',
  'products.create',
  'products.create_seat_based',
  'products.get_seat_based',
  'products.list',
  'products.get',
  'products.update',
  'products.update_benefits',
  'benefits.delete',
  'discounts.create',
  'discounts.list',
  'discounts.get',
  'discounts.update',
  'discounts.delete',
  'checkout_links.create',
  'checkout_links.list',
  'checkout_links.get',
  'checkout_links.update',
  'checkout_links.delete',
  'customers.create',
  'customers.list',
  'customers.get',
  'customers.update',
  'customers.get_external',
  'customers.update_external',
  'customers.get_state',
  'customers.get_state_external',
  'customers.list_payment_methods',
  'customers.export',
  'customers.delete',
  'checkouts.create',
  'checkouts.list',
  'checkouts.get',
  'checkouts.update',
  'checkouts.client_get',
  'checkouts.client_update',
  'orders.list',
  'orders.get',
  'orders.update',
  'orders.generate_invoice',
  'orders.invoice',
  'orders.export',
  'refunds.create',
  'refunds.list',
  'subscriptions.list',
  'subscriptions.get',
  'subscriptions.update',
  'subscriptions.export',
  'subscriptions.revoke',
  'license_keys.list',
  'license_keys.get',
  'license_keys.update',
  'license_keys.validate',
  'license_keys.activate',
  'license_keys.get_activation',
  'license_keys.deactivate',
  'metrics.get',
  'metrics.limits',
  'metrics.list_dashboards',
  'event_types.list',
  'customer_sessions.create',
  'customer_portal.customers.get',
  'customer_portal.customers.update',
  'customer_portal.customers.list_payment_methods',
  'customer_portal.organizations.get',
  'customer_portal.orders.list',
  'customer_portal.orders.get',
  'customer_portal.orders.get_payment_status',
  'customer_portal.orders.update',
  'customer_portal.orders.generate_invoice',
  'customer_portal.orders.invoice',
  'customer_portal.subscriptions.list',
  'customer_portal.benefit_grants.list',
  'customer_portal.benefit_grants.get',
  'customer_portal.license_keys.list',
  'customer_portal.license_keys.get',
  'customer_portal.license_keys.validate',
  'customer_portal.downloadables.list',
  'customer_portal.customer_meters.list',
  'customer_portal.customer_meters.get',
  'customer_portal.customer_session.introspect',
  'benefits.files',
  'benefit_grants.list',
  'customers.list_payment_methods_external',
  'orders.receipt',
  'payments.list',
  'payments.get',
  'products.delete',
  'disputes.list',
  'disputes.get',
] as const;

/** Operations each version must pass; a version-specific one goes in its own list. */
const EXPECTED_PASSING: Record<ApiVersion, readonly string[]> = {
  '2026-04': PASSING_IN_EVERY_VERSION,
  '2026-10': PASSING_IN_EVERY_VERSION,
  '2027-01': PASSING_IN_EVERY_VERSION,
};

type OperationResult = { ok: true } | { ok: false; error: string; detail: string };
type Report = {
  version: string;
  client_version: string;
  polar_version_echoed: boolean;
  versions_answered: Record<string, number>;
  operations: Record<string, OperationResult>;
};

describe('Polar Python SDK 1.0.2 (polar-sdk) against /v1, per Polar-Version', () => {
  const env = useTestStack();
  let seed: Record<string, unknown>;

  beforeAll(async () => {
    const { db } = env.database;
    const organization = await createOrganization(db, { name: 'Python Oracle' });
    const token = await createAccessToken(db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const meter = await polar.meters.create({
      name: 'Calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'call' }] },
      aggregation: { func: 'count' },
    });
    const file = await createUploadedFile(db, organization.id, {
      service: 'downloadable',
      name: 'book.pdf',
      mimeType: 'application/pdf',
    });
    const custom = await polar.benefits.create({ type: 'custom', description: 'Slack', properties: {} });
    const license = await polar.benefits.create({
      type: 'license_keys',
      description: 'Desktop app license',
      properties: { prefix: 'tg', activations: { limit: 2, enableCustomerAdmin: true }, limitUsage: 100 },
    });
    const downloads = await polar.benefits.create({
      type: 'downloadables',
      description: 'The book',
      properties: { files: [file.id] },
    });
    const product = await polar.products.create({
      name: 'Starter pack',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [custom.id, license.id, downloads.id] },
    });
    const customer = await polar.customers.create({ email: 'ada@example.test', externalId: 'user-ada' });
    await polar.events.ingest({ events: [{ name: 'call', externalCustomerId: 'user-ada' }] });
    const since = new Date(Date.now() - 86_400_000).toISOString();
    await buyInSandbox(polar, env.stack.baseUrl, product.id, customer.id);
    const [key] = await eventually(
      async () => (await polar.licenseKeys.list({ benefitId: license.id })).result.items,
      (keys) => keys.length === 1,
      30_000,
    );
    const [grant] = (await polar.benefits.grants({ id: license.id })).result.items;
    // Each version has orders and a subscription of its own: an invoice is generated once, a
    // subscription revoked once.
    const plain = await polar.products.create({
      name: 'Sticker',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 500, priceCurrency: 'usd' }],
    });
    const orderIds: Record<string, string> = {};
    const portalOrderIds: Record<string, string> = {};
    const subscriptionIds: Record<string, string> = {};
    // A disputed order, so that `disputes.list` and `disputes.get` read a dispute into the models.
    await buyInSandbox(polar, env.stack.baseUrl, plain.id, customer.id, 'pm_card_createDispute');
    await eventually(
      () => db.dispute.count({ where: { organizationId: organization.id } }),
      (count) => count > 0,
      30_000,
    );
    for (const version of API_VERSIONS) {
      orderIds[version] = (await createOrder(db, polar)).id;
      const bought = await buyInSandbox(polar, env.stack.baseUrl, plain.id, customer.id);
      const [portalOrder] = (await polar.orders.list({ checkoutId: bought.id })).result.items;
      portalOrderIds[version] = portalOrder!.id;
      subscriptionIds[version] = (await createSubscription(db, polar)).id;
    }
    const { event } = await createWebhookDelivery(db, organization.id);
    seed = {
      base_url: env.stack.baseUrl,
      token,
      organization_id: organization.id,
      organization_name: organization.name,
      organization_slug: organization.slug,
      meter_id: meter.id,
      benefit_id: custom.id,
      license_benefit_id: license.id,
      downloadables_benefit_id: downloads.id,
      product_id: product.id,
      customer_id: customer.id,
      customer_external_id: 'user-ada',
      license_key_id: key!.id,
      license_key: key!.key,
      grant_id: grant!.id,
      portal_order_ids: portalOrderIds,
      order_ids: orderIds,
      subscription_ids: subscriptionIds,
      webhook_event_id: event.id,
      since,
      until: new Date(Date.now() + 86_400_000).toISOString(),
    };
  }, 120_000);

  /** The scenario in the provisioned environment; a missing venv or SDK fails here, never skips. */
  async function runScenario(version: ApiVersion): Promise<Report> {
    const python = requireTestEnv('polarPython');
    const { stdout } = await execFileAsync(python, [SCENARIO, JSON.stringify({ ...seed, version })], {
      timeout: SCENARIO_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    const lastLine = stdout.trim().split('\n').at(-1) ?? '';
    mkdirSync(path.dirname(reportFile(version)), { recursive: true });
    writeFileSync(reportFile(version), `${lastLine}\n`);
    return JSON.parse(lastLine) as Report;
  }

  it.each(API_VERSIONS)(
    '%s: every expected operation loads into the SDK models, and the version is echoed',
    async (version) => {
      const report = await runScenario(version);
      expect(report.client_version).toBe(version);
      const results = Object.entries(report.operations);
      const passing = results.filter(([, result]) => result.ok).map(([name]) => name);
      const failing = results.filter(([, result]) => !result.ok);
      console.log(
        [
          `polar-sdk 1.0.2, ${version}: ${passing.length} / ${results.length} operations pass`,
          `  passing: ${passing.join(', ')}`,
          ...failing.map(
            ([name, result]) =>
              `  ✗ ${name}: ${result.ok ? '' : `${result.error}: ${result.detail.slice(0, 160)}`}`,
          ),
        ].join('\n'),
      );
      expect(report.versions_answered).toEqual({ [version]: expect.any(Number) });
      expect(report.polar_version_echoed).toBe(true);
      const expectedFailures = EXPECTED_PASSING[version]
        .filter((name) => !report.operations[name]?.ok)
        .map((name) => [name, report.operations[name] ?? 'not run by the scenario']);
      expect(expectedFailures).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS + 10_000,
  );
});
