import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { measureStructure } from '../structure.js';
import { DOMAIN_LAYERS, PENDING_DOMAIN_IMPORTS, domainLayersRule, mayImportDomain } from './domain-layers.js';

RuleTester.describe = describe;
RuleTester.it = it;

const root = path.resolve(import.meta.dirname, '..', '..');
const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

ruleTester.run('domain-layers', domainLayersRule, {
  valid: [
    // Down a layer: a process uses an entity, an entity uses the foundation.
    {
      code: "import { findProduct } from '../products/repository.js';",
      filename: 'domain/checkouts/service.ts',
    },
    { code: "import { AppError } from '../platform/errors.js';", filename: 'domain/customers/service.ts' },
    // Inside a layer, what the row lists.
    {
      code: "import { createSubscriptionOrder } from '../orders/service.js';",
      filename: 'domain/subscriptions/renewal.ts',
    },
    { code: "import { customerView } from '../customers/views.js';", filename: 'domain/benefits/views.ts' },
    // Types cross any way: they load nothing.
    {
      code: "import type { OrderRow } from '../orders/repository.js';",
      filename: 'domain/products/service.ts',
    },
    {
      code: "import { type OrderRow } from '../orders/repository.js';",
      filename: 'domain/products/service.ts',
    },
    {
      code: "export type { OrderRow } from '../orders/repository.js';",
      filename: 'domain/products/views.ts',
    },
    // Its own folder, and the floor below domain/.
    { code: "import { findProduct } from './repository.js';", filename: 'domain/products/service.ts' },
    { code: "import { transaction } from '../../infra/db.js';", filename: 'domain/products/service.ts' },
    // Code outside domain/ is not this rule's.
    {
      code: "import { startSubscription } from '../domain/subscriptions/service.js';",
      filename: 'activities/x.ts',
    },
  ],
  invalid: [
    // Up a layer: an entity reaching for a process.
    {
      code: "import { subscriberIdsOfProduct } from '../subscriptions/repository.js';",
      filename: 'domain/meters/service.ts',
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "import { orderView, type OrderRow } from '../orders/views.js';",
      filename: 'domain/discounts/views.ts',
      errors: [{ messageId: 'upward' }],
    },
    // Inside a layer, what the row does not list (the other way is allowed).
    {
      code: "import { createRefund } from '../refunds/service.js';",
      filename: 'domain/orders/service.ts',
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "export { checkoutView } from '../checkouts/views.js';",
      filename: 'domain/refunds/views.ts',
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "export * from '../subscriptions/rules.js';",
      filename: 'domain/refunds/rules.ts',
      errors: [{ messageId: 'upward' }],
    },
    {
      code: "const rules = await import('../checkouts/rules.js');",
      filename: 'domain/products/service.ts',
      errors: [{ messageId: 'upward' }],
    },
    // A domain folder the table does not know, as importer and as imported.
    {
      code: 'export const x = 1;',
      filename: 'domain/brand-new/service.ts',
      errors: [{ messageId: 'unlisted' }],
    },
    {
      code: "import { x } from '../brand-new/service.js';",
      filename: 'domain/checkouts/service.ts',
      errors: [{ messageId: 'unlisted' }],
    },
  ],
});

describe('the domain layer table', () => {
  const listed = DOMAIN_LAYERS.flatMap((layer) => layer.domains);

  it('places every domain folder in exactly one layer', () => {
    const folders = fs
      .readdirSync(path.join(root, 'domain'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !listed.includes(folder))).toEqual([]);
    expect(listed.filter((domain, index) => listed.indexOf(domain) !== index)).toEqual([]);
  });

  it('lets a layer import only its own domains, in one direction', () => {
    for (const layer of DOMAIN_LAYERS) {
      for (const [from, targets] of Object.entries(layer.within)) {
        expect([from, ...targets].filter((domain) => !layer.domains.includes(domain))).toEqual([]);
      }
      // Depth-first search over the row lists: a domain met again on the path is a cycle.
      const path: string[] = [];
      const visit = (domain: string) => {
        expect(path).not.toContain(domain);
        path.push(domain);
        for (const next of layer.within[domain] ?? []) visit(next);
        path.pop();
      };
      for (const domain of layer.domains) visit(domain);
    }
    expect(mayImportDomain('checkouts', 'products')).toBe(true);
    expect(mayImportDomain('products', 'checkouts')).toBe(false);
  });

  it('keeps only pending imports the code still has', () => {
    const { domainImports } = measureStructure();
    const present = Object.entries(domainImports).flatMap(([from, targets]) =>
      targets.map((to) => `${from} -> ${to}`),
    );
    for (const edge of Object.keys(PENDING_DOMAIN_IMPORTS)) {
      const [from, to] = edge.split(' -> ') as [string, string];
      expect(mayImportDomain(from, to)).toBe(false);
      expect(present).toContain(edge);
    }
  });

  it('leaves no cycle between domain folders once the pending imports are gone', () => {
    const { domainImports } = measureStructure();
    const allowed = Object.entries(domainImports).flatMap(([from, targets]) =>
      targets.filter((to) => !PENDING_DOMAIN_IMPORTS[`${from} -> ${to}`]).map((to) => [from, to]),
    );
    expect(allowed.filter(([from, to]) => !mayImportDomain(from!, to!))).toEqual([]);
  });
});

// The project's configuration runs the rule: `npm run lint` (and so `npm run test:static`) fails
// on a domain importing upward.
describe('domain layers in the project configuration', () => {
  const eslint = new ESLint({ cwd: root });
  const layerMessages = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((message) => message.ruleId === 'tollgate-domain/domain-layers');
  };

  it('reports an entity importing a process, not a process importing an entity', async () => {
    const upward = await layerMessages(
      'domain/customers/violation.ts',
      "import { createCheckout } from '../checkouts/service.js';\nexport { createCheckout };",
    );
    expect(upward.map((message) => message.message)).toEqual([
      expect.stringContaining('domain/customers (entities) may not load domain/checkouts (processes)'),
    ]);
    expect(
      await layerMessages(
        'domain/subscriptions/fine.ts',
        "import { findLiveCustomer } from '../customers/repository.js';\nexport { findLiveCustomer };",
      ),
    ).toEqual([]);
  });

  it('leaves tests free to set up any domain', async () => {
    expect(
      await layerMessages(
        'domain/customers/state.test.ts',
        "import { startSubscription } from '../subscriptions/service.js';\nexport { startSubscription };",
      ),
    ).toEqual([]);
  });
});
