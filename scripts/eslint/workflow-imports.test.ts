import { describe, it } from '@jest/globals';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { workflowImportsRule } from './workflow-imports.js';

RuleTester.describe = describe;
RuleTester.it = it;

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

ruleTester.run('workflow-imports', workflowImportsRule, {
  valid: [
    "import { proxyActivities, sleep } from '@temporalio/workflow';",
    "import { checkoutTotals } from '../domain/checkouts/rules.js';",
    "import { checkoutSchema } from '../domain/checkouts/schemas.js';",
    "import type { CheckoutActivities } from '../activities/checkouts.js';",
    "import { type CheckoutActivities } from '../activities/checkouts.js';",
    "export { readinessWorkflow } from './system.js';",
  ],
  invalid: [
    { code: "import { PrismaClient } from '@prisma/client';", errors: [{ messageId: 'forbidden' }] },
    { code: "import fs from 'node:fs';", errors: [{ messageId: 'forbidden' }] },
    { code: "import Stripe from 'stripe';", errors: [{ messageId: 'forbidden' }] },
    {
      code: "import { listOrders } from '../domain/orders/repository.js';",
      errors: [{ messageId: 'forbidden' }],
    },
    {
      code: "import { createCheckout } from '../domain/checkouts/service.js';",
      errors: [{ messageId: 'forbidden' }],
    },
    { code: "import { createApp } from '../api/app.js';", errors: [{ messageId: 'forbidden' }] },
    {
      code: "import { createCheckoutActivities } from '../activities/checkouts.js';",
      errors: [{ messageId: 'typeOnly' }],
    },
    { code: "export * from '../infra/db.js';", errors: [{ messageId: 'forbidden' }] },
    { code: "const m = await import('@temporalio/workflow');", errors: [{ messageId: 'forbidden' }] },
  ],
});
