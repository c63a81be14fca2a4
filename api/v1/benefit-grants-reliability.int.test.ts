import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { ApplicationFailure } from '@temporalio/common';
import type { Context } from '@temporalio/activity';
import type { ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import {
  createAccessToken,
  createLinkedAccount,
  createOrganization,
  createUploadedFile,
} from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { startFakeGitHub, type FakeGitHub } from '../../test/fake-platforms.js';
import { useTestStack } from '../../test/stack.js';

/**
 * Dies after every grant step's first run for each (customer, benefit), and after the
 * dispatcher's rounds: each step's effects are committed, but the worker never reports it done,
 * as when the process is killed there. Temporal runs it again, which must change nothing.
 */
function crashOnceAfterEachGrantStep(crashed: string[]) {
  return (context: Context) => {
    const inbound: ActivityInboundCallsInterceptor = {
      async execute(input, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
        const result: unknown = await next(input);
        const step = context.info.activityType;
        if (step !== 'applyBenefitGrants' && step !== 'dispatchBenefitGrants') return result;
        const call = `${step}:${JSON.stringify(input.args)}`;
        if (!crashed.includes(call)) {
          crashed.push(call);
          throw ApplicationFailure.retryable(`worker killed after ${step} committed`);
        }
        return result;
      },
    };
    return { inbound };
  };
}

describe('benefit grants survive a worker killed after every step', () => {
  const crashed: string[] = [];
  let github: FakeGitHub;
  const platformSettings: Record<string, string> = {};
  beforeAll(async () => {
    github = await startFakeGitHub();
    Object.assign(platformSettings, github.settings);
  });
  afterAll(async () => {
    await github?.stop();
  });
  const env = useTestStack({
    workerInterceptors: { activity: [crashOnceAfterEachGrantStep(crashed)] },
    platformSettings,
  });

  it('gives exactly one key, one file, one credit and one GitHub invitation, takes them back once, and says so once', async () => {
    const organization = await createOrganization(env.database.db);
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const meter = await polar.meters.create({
      name: 'Calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'call' }] },
      aggregation: { func: 'count' },
    });
    const file = await createUploadedFile(env.database.db, organization.id, { service: 'downloadable' });
    const benefits = [
      await polar.benefits.create({ type: 'license_keys', description: 'License', properties: {} }),
      await polar.benefits.create({
        type: 'downloadables',
        description: 'Files',
        properties: { files: [file.id] },
      }),
      await polar.benefits.create({
        type: 'meter_credit',
        description: 'Credits',
        properties: { units: 500, rollover: false, meterId: meter.id },
      }),
      await polar.benefits.create({
        type: 'github_repository',
        description: 'Source',
        properties: { repositoryOwner: 'acme', repositoryName: 'app', permission: 'pull' },
      }),
    ];
    github.addRepository('acme', 'app');
    github.addUser({ id: 583231, login: 'octocat' });
    // GitHub invites, then its answer is lost: the step rolls back and its retry invites again.
    github.fail(1, { afterEffect: true });
    const product = await polar.products.create({
      name: 'Bundle',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: benefits.map(({ id }) => id) },
    });
    const customer = await polar.customers.create({ email: 'crash@example.test' });
    await createLinkedAccount(env.database.db, { id: customer.id, organizationId: organization.id });
    const checkout = await polar.checkouts.create({ products: [product.id], customerId: customer.id });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Cass Crash',
        customerBillingAddress: {
          country: 'DE',
          city: 'Berlin',
          postalCode: '10117',
          line1: 'Unter den Linden 1',
        },
        confirmationTokenId: 'pm_card_visa',
      },
    });
    const grantsSettled = (check: (grant: { isGranted: boolean; isRevoked: boolean }) => boolean) =>
      Promise.all(
        benefits.map((benefit) =>
          eventually(
            async () => (await polar.benefits.grants({ id: benefit.id })).result.items,
            (grants) => grants.length === 1 && check(grants[0]!),
            45_000,
          ),
        ),
      );
    await grantsSettled((grant) => grant.isGranted);

    const db = env.database.db;
    const credited = () =>
      db.event.findMany({
        where: { customerId: customer.id, name: 'meter.credited' },
        select: { metadata: true },
      });
    expect(await db.licenseKey.count({ where: { customerId: customer.id } })).toBe(1);
    expect(await db.downloadable.count({ where: { customerId: customer.id, status: 'granted' } })).toBe(1);
    expect((await credited()).map(({ metadata }) => (metadata as { units: number }).units)).toEqual([500]);
    expect(github.failuresLeft).toBe(0);
    expect(github.invitationsCreated).toBe(1);
    expect(github.invitations('acme', 'app')).toEqual([{ login: 'octocat', permission: 'pull' }]);

    const [order] = (await polar.orders.list({ productId: product.id })).result.items;
    await polar.refunds.create({ orderId: order!.id, reason: 'other', amount: 2500, revokeBenefits: true });
    await grantsSettled((grant) => grant.isRevoked);
    expect((await credited()).map(({ metadata }) => (metadata as { units: number }).units).sort()).toEqual([
      -500, 500,
    ]);
    expect(await db.licenseKey.count({ where: { customerId: customer.id, status: 'revoked' } })).toBe(1);
    expect(await db.downloadable.count({ where: { customerId: customer.id, status: 'revoked' } })).toBe(1);
    expect(github.invitations('acme', 'app')).toEqual([]);
    expect(github.invitationsCreated).toBe(1);
    expect(github.violations).toEqual([]);

    const events = await db.outboxEvent.groupBy({
      by: ['type'],
      where: { organizationId: organization.id, type: { startsWith: 'benefit_grant.' } },
      _count: true,
    });
    expect(Object.fromEntries(events.map((event) => [event.type, event._count]))).toEqual({
      'benefit_grant.created': 4,
      'benefit_grant.revoked': 4,
    });
    expect(crashed.filter((call) => call.startsWith('applyBenefitGrants')).length).toBeGreaterThanOrEqual(4);
  });
});
