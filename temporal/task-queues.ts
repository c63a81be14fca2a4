/**
 * Task queue names, in one place. Every queue is prefixed with TEMPORAL_TASK_QUEUE so that
 * several Tollgate deployments (or test runs) can share one Temporal namespace.
 */
export function taskQueues(prefix: string) {
  return {
    /** Workflows and activities of every domain. */
    main: prefix,
  } as const;
}
