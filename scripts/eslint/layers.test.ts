import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';

// The project's own ESLint configuration, applied to code that would break the import direction
// (docs/architecture.md). Each case names a file the code pretends to live in.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '..', '..') });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((message) => message.message);
}

describe('import direction', () => {
  it('keeps Temporal, outside services and the composing layers out of the domain', async () => {
    const service = 'domain/checkouts/service.ts';
    for (const [code, name] of [
      ["import { Client } from '@temporalio/client';", 'Client'],
      ["import Stripe from 'stripe';", 'Stripe'],
      ["import { temporalStarters } from '../../temporal/starters.js';", 'temporalStarters'],
      ["import { createApp } from '../../api/app.js';", 'createApp'],
      ["import { httpWebhookSender } from '../../integrations/http/webhook-sender.js';", 'httpWebhookSender'],
    ]) {
      expect(await restrictedImports(service, `${code}\nexport { ${name} };`)).toHaveLength(1);
    }
    expect(
      await restrictedImports(
        service,
        "import { findCheckout } from './repository.js';\nexport { findCheckout };",
      ),
    ).toEqual([]);
  });

  it('lets pure files take types, not calls, from repositories and services', async () => {
    const views = 'domain/refunds/views.ts';
    expect(
      await restrictedImports(
        views,
        "import type { RefundRow } from './repository.js';\nexport type Row = RefundRow;",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(views, "import { findRefund } from './repository.js';\nexport { findRefund };"),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'domain/refunds/rules.ts',
        "import { readFile } from 'node:fs/promises';\nexport { readFile };",
      ),
    ).toHaveLength(1);
  });

  it('keeps infra free of the application, and activities free of adapters', async () => {
    expect(
      await restrictedImports(
        'infra/db.ts',
        "import { refundView } from '../domain/refunds/views.js';\nexport { refundView };",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'activities/refunds.ts',
        "import { createStripeProcessor } from '../integrations/stripe/processor.js';\nexport { createStripeProcessor };",
      ),
    ).toHaveLength(1);
  });

  it('lets the web app import pure domain files only', async () => {
    const page = 'web/routes/dashboard.refunds.tsx';
    expect(
      await restrictedImports(
        page,
        "import { refundSchema } from '../../domain/refunds/schemas';\nexport { refundSchema };",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        page,
        "import { createRefund } from '../../domain/refunds/service';\nexport { createRefund };",
      ),
    ).toHaveLength(1);
  });
});
