// What each workflow run is for, as Temporal's user metadata says it: a one-line summary for the
// UI's list ("Checkout for Pro plan by buyer@example.com — Acme") and markdown details for its page.
// Pure: the starters (temporal/entity-directory.ts) look the facts up and pass them here.

import { formatMoney } from '../money/rules.js';
import { isoUtc, type EntityKind } from './rules.js';

/** What an entity's workflow start knows of it, read once when the workflow starts. */
export type EntityFacts =
  | {
      kind: 'checkout';
      id: string;
      organizationName: string;
      productName: string;
      recurringInterval: string | null;
      buyerEmail: string | null;
      totalAmount: number;
      currency: string;
      expiresAtMs: number;
    }
  | {
      kind: 'subscription';
      id: string;
      organizationName: string;
      productName: string;
      recurringInterval: string;
      customerEmail: string;
      startedAtMs: number | null;
    }
  | {
      kind: 'refund';
      id: string;
      organizationName: string;
      orderId: string;
      productName: string;
      customerEmail: string;
      amount: number;
      taxAmount: number;
      currency: string;
      reason: string;
    }
  | {
      kind: 'invitation';
      id: string;
      organizationName: string;
      email: string;
      role: string | null;
      inviterName: string;
      expiresAtMs: number;
    }
  | {
      kind: 'benefit_grant';
      organizationName: string;
      benefitId: string;
      benefitDescription: string;
      benefitType: string;
      customerId: string;
      customerEmail: string | null;
    }
  | { kind: 'payment_method_setup'; organizationName: string; customerId: string; customerEmail: string }
  | {
      kind: 'payment_method_detach';
      id: string;
      organizationName: string;
      customerEmail: string;
      brand: string | null;
      last4: string | null;
    }
  | { kind: 'webhook_delivery'; endpointId: string; organizationName: string; url: string };

/** Temporal's `staticSummary` (one line) and `staticDetails` (markdown) of a run. */
export type RunDescription = { summary: string; details: string };

/** Longest text taken from a seller or buyer into a summary: the UI's list shows one line. */
const MAX_TEXT = 80;

/**
 * Text that sellers and buyers wrote (product names, emails) as literal markdown on one line: no
 * line breaks, markdown's characters escaped, long text shortened.
 */
export function plainText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const short = line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT - 1)}…` : line;
  return short.replace(/[\\`*_[\]<>~]/g, (character) => `\\${character}`);
}

/** "monthly", "yearly", or "every week" for an interval without an adverb of its own. */
export function intervalWords(interval: string): string {
  return interval === 'month' ? 'monthly' : interval === 'year' ? 'yearly' : `every ${interval}`;
}

const bullets = (lines: (string | null)[]) =>
  lines
    .filter((line): line is string => line !== null)
    .map((line) => `- ${line}`)
    .join('\n');

/** The summary and details of an entity workflow's run, as of its start. */
export function describeEntityRun(
  facts: EntityFacts,
  context: { dashboardUrl: string; resourceId?: string },
): RunDescription {
  const organization = plainText(facts.organizationName);
  const dashboard = `Dashboard: ${context.dashboardUrl}`;
  const asOfStart = 'As at the start of this run.';
  switch (facts.kind) {
    case 'checkout': {
      const product = plainText(facts.productName);
      const buyer = facts.buyerEmail ? plainText(facts.buyerEmail) : null;
      const due = formatMoney(facts.totalAmount, facts.currency);
      return {
        summary: `Checkout for ${product}${buyer ? ` by ${buyer}` : ''} — ${organization}`,
        details: [
          `**Checkout** \`${facts.id}\` of **${organization}** for **${product}**.`,
          bullets([
            `Buyer: ${buyer ?? 'not known yet (they give their email on the checkout page)'}`,
            `Due at checkout: ${due}${facts.recurringInterval ? `, then the plan renews ${intervalWords(facts.recurringInterval)}` : ''}`,
            `Expires: ${isoUtc(facts.expiresAtMs)}`,
            dashboard,
          ]),
          asOfStart,
        ].join('\n\n'),
      };
    }
    case 'subscription': {
      const product = plainText(facts.productName);
      const customer = plainText(facts.customerEmail);
      const interval = intervalWords(facts.recurringInterval);
      return {
        summary: `Subscription to ${product} (${interval}) of ${customer} — ${organization}`,
        details: [
          `**Subscription** \`${facts.id}\` of **${organization}** to **${product}**, renewed ${interval}.`,
          bullets([
            `Customer: ${customer}`,
            facts.startedAtMs === null ? null : `Started: ${isoUtc(facts.startedAtMs)}`,
            dashboard,
          ]),
          asOfStart,
        ].join('\n\n'),
      };
    }
    case 'refund': {
      const money = formatMoney(facts.amount + facts.taxAmount, facts.currency);
      const product = plainText(facts.productName);
      const customer = plainText(facts.customerEmail);
      return {
        summary: `Refund of ${money} on the ${product} order of ${customer} — ${organization}`,
        details: [
          `**Refund** \`${facts.id}\` of **${organization}**: ${money} (tax ${formatMoney(facts.taxAmount, facts.currency)} included) to ${customer}.`,
          bullets([
            `Order: \`${facts.orderId}\` (${product})`,
            `Reason: ${plainText(facts.reason)}`,
            dashboard,
          ]),
        ].join('\n\n'),
      };
    }
    case 'invitation': {
      const email = plainText(facts.email);
      const role = facts.role ? plainText(facts.role) : 'member';
      return {
        summary: `Invitation of ${email} to ${organization} as ${role}`,
        details: [
          `**Invitation** \`${facts.id}\` of ${email} to **${organization}** as ${role}.`,
          bullets([
            `Invited by: ${plainText(facts.inviterName)}`,
            `Expires: ${isoUtc(facts.expiresAtMs)}`,
            dashboard,
          ]),
        ].join('\n\n'),
      };
    }
    case 'benefit_grant': {
      const benefit = plainText(facts.benefitDescription);
      const customer = facts.customerEmail ? plainText(facts.customerEmail) : `customer ${facts.customerId}`;
      return {
        summary: `Benefit “${benefit}” (${facts.benefitType}) for ${customer} — ${organization}`,
        details: [
          `**Benefit grants** of **${organization}**: “${benefit}” for ${customer}.`,
          bullets([
            `Benefit: \`${facts.benefitId}\` (${facts.benefitType})`,
            `Customer: \`${facts.customerId}\``,
            dashboard,
          ]),
        ].join('\n\n'),
      };
    }
    case 'payment_method_setup': {
      const customer = plainText(facts.customerEmail);
      return {
        summary: `Saving a card for ${customer} — ${organization}`,
        details: [
          `**Card setup** for ${customer} (customer \`${facts.customerId}\`) of **${organization}**, from the customer portal.`,
          bullets([dashboard]),
        ].join('\n\n'),
      };
    }
    case 'payment_method_detach': {
      const card = facts.brand && facts.last4 ? `${plainText(facts.brand)} •••• ${facts.last4}` : 'a card';
      const customer = plainText(facts.customerEmail);
      return {
        summary: `Removing ${card} of ${customer} — ${organization}`,
        details: [
          `**Card removal**: ${card} (\`${facts.id}\`), deleted by ${customer} in the customer portal of **${organization}**, leaves the processor's customer.`,
          bullets([dashboard]),
        ].join('\n\n'),
      };
    }
    case 'webhook_delivery': {
      const url = plainText(facts.url);
      return context.resourceId
        ? {
            summary: `Webhook retries to ${url} about ${context.resourceId} — ${organization}`,
            details: [
              `**Webhook deliveries** of **${organization}** to ${url} about resource \`${context.resourceId}\`: retries, one event at a time in the order they were queued.`,
              bullets([`Endpoint: \`${facts.endpointId}\``, dashboard]),
            ].join('\n\n'),
          }
        : {
            summary: `Webhook first attempts to ${url} — ${organization}`,
            details: [
              `**Webhook deliveries** of **${organization}** to ${url}: the first attempt of every event; those that fail move to their resource's workflow.`,
              bullets([`Endpoint: \`${facts.endpointId}\``, dashboard]),
            ].join('\n\n'),
          };
    }
  }
}

const SYSTEM_RUNS: Partial<Record<EntityKind, RunDescription>> = {
  webhook_dispatcher: {
    summary: 'Webhook outbox dispatcher — whole deployment',
    details:
      '**Webhook outbox dispatcher** of the whole deployment: hands every committed event to the delivery workflows of the endpoints that subscribe to it.',
  },
  benefit_grant_dispatcher: {
    summary: 'Benefit grant dispatcher — whole deployment',
    details:
      '**Benefit grant dispatcher** of the whole deployment: brings the grant rows of customers whose benefits changed to what they should hold, and wakes the grant workflows that have work.',
  },
  customer_meter_refresher: {
    summary: 'Customer meter refresher — whole deployment',
    details:
      '**Customer meter refresher** of the whole deployment: recomputes the meters of customers whose usage, credits or plans changed.',
  },
};

/** A deployment-wide workflow's summary and details. */
export function describeSystemRun(kind: EntityKind): RunDescription | null {
  return SYSTEM_RUNS[kind] ?? null;
}
