// The layers inside domain/ (docs/architecture.md, "Domain layers"): each domain folder sits in one
// layer and may load, at run time, the domains of the layers below it and, inside its own layer, only
// those its row lists. Type-only imports may cross any way: they load nothing, so they make no cycle.

/**
 * Bottom to top. `within` lists, for a domain, the domains of its own layer it may import; the
 * lists of a layer form no cycle (domain-layers.test.ts checks it).
 * @type {{ name: string; holds: string; domains: string[]; within: Record<string, string[]> }[]}
 */
export const DOMAIN_LAYERS = [
  {
    name: 'foundation',
    holds:
      'rules and records every domain may use: errors and pages, access, money, dates, addresses, metadata, emails, invoices, tax, the webhook outbox, the payment processor, operator words',
    domains: [
      'platform',
      'access',
      'money',
      'dates',
      'addresses',
      'metadata',
      'emails',
      'invoices',
      'tax',
      'webhook-outbox',
      'payments',
      'operators',
      'system',
    ],
    within: {
      access: ['platform'],
      addresses: ['platform'],
      metadata: ['platform'],
      emails: ['dates'],
      invoices: ['addresses', 'dates', 'money'],
      tax: ['money'],
      operators: ['money'],
      payments: ['access', 'platform'],
    },
  },
  {
    name: 'entities',
    holds:
      'what a seller sets up and who buys: organizations, members, files, custom fields, meters, prices, customers and their accounts, cards, benefits, keys, downloadables, webhook endpoints',
    domains: [
      'organizations',
      'users',
      'invitations',
      'access-tokens',
      'oauth2',
      'files',
      'custom-fields',
      'meters',
      'prices',
      'customers',
      'customer-accounts',
      'payment-methods',
      'benefits',
      'license-keys',
      'downloadables',
      'webhooks',
    ],
    within: {
      webhooks: ['organizations'],
      oauth2: ['organizations'],
      meters: ['customers'],
      'customer-accounts': ['customers'],
      'payment-methods': ['customers'],
      'license-keys': ['customers'],
      benefits: ['customers', 'files', 'meters'],
    },
  },
  {
    name: 'catalogue',
    holds: 'what is sold: products with their prices and benefits, discounts, checkout links',
    domains: ['products', 'discounts', 'checkout-links'],
    within: {
      discounts: ['products'],
      'checkout-links': ['products', 'discounts'],
    },
  },
  {
    name: 'holdings',
    holds: 'what customers did and hold: usage events, meter balances, customer state, benefit grants',
    domains: ['usage', 'customer-state', 'customer-meters', 'benefit-grants'],
    within: {
      'customer-meters': ['usage', 'customer-state'],
      'benefit-grants': ['usage', 'customer-state', 'customer-meters'],
    },
  },
  {
    name: 'processes',
    holds:
      'what happens over time: sessions, orders, subscriptions and their clocks, checkouts, refunds, the portal, reports',
    domains: [
      'customer-sessions',
      'customer-seats',
      'orders',
      'subscriptions',
      'test-clocks',
      'checkouts',
      'refunds',
      'disputes',
      'customer-portal',
      'customer-timeline',
      'metrics',
      'search',
    ],
    within: {
      orders: ['customer-sessions'],
      'customer-seats': ['customer-sessions'],
      subscriptions: ['customer-sessions', 'customer-seats', 'orders'],
      'test-clocks': ['subscriptions'],
      checkouts: ['customer-sessions', 'orders', 'subscriptions', 'test-clocks'],
      refunds: ['orders'],
      disputes: ['orders'],
      'customer-timeline': ['orders', 'refunds', 'subscriptions'],
      'customer-portal': ['customer-sessions', 'customer-seats', 'orders', 'subscriptions', 'checkouts'],
    },
  },
];

/**
 * Imports that break the table while they are being moved, each naming what still has to move;
 * none today. An entry that no longer matches an import fails domain-layers.test.ts, so the list
 * only shrinks.
 * @type {Record<string, string>}
 */
export const PENDING_DOMAIN_IMPORTS = {};

const layerOf = new Map(
  DOMAIN_LAYERS.flatMap((layer, index) => layer.domains.map((domain) => [domain, { layer, index }])),
);

/** The layer of a domain folder, or undefined when the table does not list it. */
export function domainLayer(domain) {
  return layerOf.get(domain)?.layer;
}

/** Whether code of domain `from` may load code of domain `to` at run time. */
export function mayImportDomain(from, to) {
  if (from === to) return true;
  const source = layerOf.get(from);
  const target = layerOf.get(to);
  if (!source || !target) return false;
  if (target.index < source.index) return true;
  if (target.index > source.index) return false;
  return (source.layer.within[from] ?? []).includes(to);
}

const DOMAIN_FILE = /(?:^|\/)domain\/([^/]+)\/[^/]+$/;
const DOMAIN_PATH = /(?:^|\/)domain\/([^/]+)\//;

function posix(file) {
  return file.split('\\').join('/');
}

function dirname(file) {
  return file.slice(0, file.lastIndexOf('/'));
}

/** `a/b/c` joined with a relative specifier, `..` and `.` resolved. */
function resolve(directory, specifier) {
  const parts = directory.split('/');
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** @type {import('eslint').Rule.RuleModule} */
export const domainLayersRule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Domain folders import only the domains their layer may use (docs/architecture.md)',
    },
    messages: {
      upward:
        'domain/{{from}} ({{fromLayer}}) may not load domain/{{to}} ({{toLayer}}) at run time: a domain imports the layers below its own and, in its own layer, only what its row in scripts/eslint/domain-layers.js lists. Move the shared part down, move the function up, or pass the higher domain in through an interface the lower one owns (docs/architecture.md, "Domain layers"). Types may come from anywhere with \'import type\'.',
      unlisted:
        'domain/{{domain}} is in no layer: add it to DOMAIN_LAYERS in scripts/eslint/domain-layers.js and to the table in docs/architecture.md ("Domain layers").',
    },
    schema: [],
  },
  create(context) {
    const file = posix(context.filename);
    const from = DOMAIN_FILE.exec(file)?.[1];
    if (!from) return {};

    function check(node, specifier) {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = DOMAIN_PATH.exec(resolve(dirname(file), specifier) + '/')?.[1];
      if (!to || to === from || !domainLayer(from)) return;
      if (!domainLayer(to)) {
        context.report({ node, messageId: 'unlisted', data: { domain: to } });
        return;
      }
      if (mayImportDomain(from, to) || PENDING_DOMAIN_IMPORTS[`${from} -> ${to}`]) return;
      context.report({
        node,
        messageId: 'upward',
        data: { from, to, fromLayer: domainLayer(from).name, toLayer: domainLayer(to).name },
      });
    }

    return {
      Program(node) {
        if (!domainLayer(from)) context.report({ node, messageId: 'unlisted', data: { domain: from } });
      },
      ImportDeclaration(node) {
        if (node.importKind === 'type') return;
        const specifiers = node.specifiers;
        const onlyTypes =
          specifiers.length > 0 &&
          specifiers.every(
            (specifier) => specifier.type === 'ImportSpecifier' && specifier.importKind === 'type',
          );
        if (!onlyTypes) check(node, node.source.value);
      },
      ExportNamedDeclaration(node) {
        if (node.source && node.exportKind !== 'type') check(node, node.source.value);
      },
      ExportAllDeclaration(node) {
        if (node.exportKind !== 'type') check(node, node.source.value);
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value);
      },
    };
  },
};
