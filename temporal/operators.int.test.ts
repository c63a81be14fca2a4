import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { checkoutWorkflowId } from '../domain/checkouts/rules.js';
import { subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import { eventually } from '../test/eventually.js';
import {
  buyInSandbox,
  createAccessToken,
  createCustomer,
  createOrganization,
  createProduct,
} from '../test/factories.js';
import { useTestStack } from '../test/stack.js';
import { ENTITY_ID, ENTITY_KIND, ORGANIZATION_ID, STATUS } from '../domain/operators/rules.js';

describe('search attributes and memo on the dev server (what operators find in the Temporal UI)', () => {
  const env = useTestStack();

  it('finds an organization’s checkout and subscription workflows by organization, with their status kept current', async () => {
    const organization = await createOrganization(env.database.db);
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const plan = await createProduct(polar, {
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    const customer = await createCustomer(polar);
    const checkout = await buyInSandbox(polar, env.stack.baseUrl, plan.id, customer.id);
    const subscription = await eventually(
      () => env.database.db.subscription.findFirst({ where: { checkoutId: checkout.id } }),
      (row) => row !== null,
    );
    const temporal = env.stack.temporal;

    const checkoutHandle = temporal.workflow.getHandle(checkoutWorkflowId(checkout.id));
    const checkoutRun = await eventually(
      () => checkoutHandle.describe(),
      (described) => described.typedSearchAttributes.get(STATUS) === 'succeeded',
    );
    expect(checkoutRun.typedSearchAttributes.get(ORGANIZATION_ID)).toBe(organization.id);
    expect(checkoutRun.typedSearchAttributes.get(ENTITY_KIND)).toBe('checkout');
    expect(checkoutRun.typedSearchAttributes.get(ENTITY_ID)).toBe(checkout.id);
    expect(checkoutRun.memo).toEqual({ dashboard_url: `${env.stack.baseUrl}/dashboard/checkouts` });

    const subscriptionHandle = temporal.workflow.getHandle(subscriptionWorkflowId(subscription!.id));
    const active = await subscriptionHandle.describe();
    expect(active.typedSearchAttributes.get(STATUS)).toBe('active');
    expect(active.typedSearchAttributes.get(ENTITY_KIND)).toBe('subscription');
    expect(active.memo).toEqual({
      dashboard_url: `${env.stack.baseUrl}/dashboard/subscriptions/${subscription!.id}`,
    });

    await polar.subscriptions.update({
      id: subscription!.id,
      subscriptionUpdate: { cancelAtPeriodEnd: true },
    });
    const canceling = await eventually(
      () => subscriptionHandle.describe(),
      (described) => described.typedSearchAttributes.get(STATUS) === 'canceling',
    );
    expect(canceling.typedSearchAttributes.get(ORGANIZATION_ID)).toBe(organization.id);
    expect(canceling.status.name).toBe('RUNNING');

    // Visibility is eventually consistent: the list catches up with the starts within moments.
    const listed = await eventually(
      async () => {
        const found: WorkflowExecutionInfo[] = [];
        for await (const workflow of temporal.workflow.list({
          query: `TollgateOrganizationId = '${organization.id}'`,
        })) {
          found.push(workflow);
        }
        return found.map((workflow) => workflow.workflowId).sort();
      },
      (ids) => ids.includes(checkoutHandle.workflowId) && ids.includes(subscriptionHandle.workflowId),
    );
    expect(listed).toEqual(
      expect.arrayContaining([checkoutHandle.workflowId, subscriptionHandle.workflowId]),
    );
    const other = await createOrganization(env.database.db);
    const foreign = temporal.workflow.list({ query: `TollgateOrganizationId = '${other.id}'` });
    for await (const workflow of foreign) throw new Error(`unexpected workflow ${workflow.workflowId}`);
  });
});
