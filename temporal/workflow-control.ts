// What every entity's starter (temporal/<entity>.ts) needs: a start that tolerates a workflow
// already running, and the reconciler's question "does this workflow run?".

import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';

/** Runs a start; `false` when the workflow already runs (a retried request, a racing reconciler). */
export async function startOnce(start: () => Promise<unknown>): Promise<boolean> {
  try {
    await start();
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

export async function isRunning(temporal: Client, workflowId: string): Promise<boolean> {
  try {
    const description = await temporal.workflow.getHandle(workflowId).describe();
    return description.status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/**
 * The reconciler's half that speaks Temporal: starts the workflow of each entity that has none
 * running (its start was lost between the commit and the call), and answers the workflow ids it
 * started. Which entities should have one is the domain's question.
 */
export async function startMissing(
  temporal: Client,
  entityIds: readonly string[],
  workflowIdOf: (entityId: string) => string,
  start: (entityId: string) => Promise<boolean>,
): Promise<string[]> {
  const started: string[] = [];
  for (const id of entityIds) {
    if (await isRunning(temporal, workflowIdOf(id))) continue;
    if (await start(id)) started.push(workflowIdOf(id));
  }
  return started;
}

/** Signals a workflow that may have ended already: the signal then has nobody to wake. */
export async function signalIfRunning(
  temporal: Client,
  workflowId: string,
  signal: string,
  ...args: unknown[]
): Promise<void> {
  try {
    await temporal.workflow.getHandle(workflowId).signal(signal, ...args);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}
