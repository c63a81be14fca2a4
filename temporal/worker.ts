import os from 'node:os';
import pino, { type Logger } from 'pino';
import {
  Worker,
  type NativeConnection,
  type WorkerInterceptors,
  type WorkflowBundleOption,
} from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import type { Db } from '../infra/db.js';
import type { Mailer } from '../domain/emails/mailer.js';
import { NO_ACCOUNT_PLATFORMS, type AccountPlatforms } from '../domain/customer-accounts/platforms.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import { resolveTypeScriptSpecifiers, workflowsEntryPath } from './bundle.js';
import type { WebhookSender } from '../domain/webhooks/service.js';
import type { WorkflowStarters } from './starters.js';
import { taskQueues } from './task-queues.js';
import type { Tracing } from '../infra/trace-context.js';
import { stuckActivityInterceptor } from './stuck-activities.js';
import { workerTracing } from './tracing.js';

export type TollgateWorkerDeps = {
  connection: NativeConnection;
  namespace: string;
  taskQueuePrefix: string;
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** Each entity's workflows, for activities that wake or start them. */
  workflows: WorkflowStarters;
  processor: PaymentProcessor;
  processorMetadata: Record<string, string>;
  /** Tax on renewals, as on checkouts. */
  tax: TaxCalculator;
  /** Days between the tries of a failed renewal (`SUBSCRIPTION_RETRY_DAYS`). */
  dunningRetryDays?: readonly number[];
  /** How webhook attempts reach endpoints, under the deployment's delivery rule. */
  webhookSender: WebhookSender;
  /** GitHub and Discord, where those benefits are granted; none unless given. */
  accountPlatforms?: AccountPlatforms;
  /** A pre-built bundle (production, tests); without one the workflows are bundled at start (dev). */
  workflowBundle?: WorkflowBundleOption;
  identity?: string;
  /**
   * Workflow runs kept in memory between their tasks (sticky cache); the SDK's default, derived
   * from the heap limit, unless given. The bench sets it to hold every open workflow (B7).
   */
  maxCachedWorkflows?: number;
  /** Tests interpose here (e.g. to crash at an activity boundary). */
  interceptors?: WorkerInterceptors;
  /** Where the stuck-activity interceptor says it could not record; silent unless given. */
  logger?: Logger;
  /** The attempt from which a failing activity is stuck (STUCK_ACTIVITY_ATTEMPTS unless given). */
  stuckActivityAttempts?: number;
  /**
   * The process's tracing (infra/tracing.ts): activity spans and the workflows' span sink. A
   * pre-built `workflowBundle` must then be the traced one (`bundleWorkflows({ tracing: true })`).
   */
  tracing?: Tracing | null;
};

/** The one worker of a Tollgate deployment: every workflow and activity on the main queue. */
export async function createTollgateWorker(deps: TollgateWorkerDeps): Promise<Worker> {
  const identity = deps.identity ?? `${process.pid}@${os.hostname()}`;
  const interceptors: WorkerInterceptors = {
    ...deps.interceptors,
    activity: [
      stuckActivityInterceptor(
        deps.db.sql,
        deps.logger ?? pino({ level: 'silent' }),
        deps.stuckActivityAttempts,
      ),
      ...(deps.interceptors?.activity ?? []),
    ],
  };
  const traced = deps.tracing ? workerTracing(deps.tracing, interceptors) : null;
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: taskQueues(deps.taskQueuePrefix).main,
    identity,
    ...(traced ? traced : { interceptors }),
    ...(deps.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: deps.maxCachedWorkflows } : {}),
    activities: createActivities({
      db: deps.db,
      mailer: deps.mailer,
      publicUrl: deps.publicUrl,
      workflows: deps.workflows,
      webhookSender: deps.webhookSender,
      accountPlatforms: deps.accountPlatforms ?? NO_ACCOUNT_PLATFORMS,
      workerIdentity: identity,
      processor: deps.processor,
      processorMetadata: deps.processorMetadata,
      tax: deps.tax,
      dunningRetryDays: deps.dunningRetryDays,
    }),
    ...(deps.workflowBundle
      ? { workflowBundle: deps.workflowBundle }
      : {
          workflowsPath: workflowsEntryPath(),
          bundlerOptions: { webpackConfigHook: resolveTypeScriptSpecifiers },
        }),
  });
}
