// B4's workflow bundle: every workflow a Tollgate worker registers plus B4's baseline, kept out of
// workflows/index.ts so that no production bundle carries bench code.
export * from '../workflows/index.js';

/** B4's baseline: nothing but Temporal's own start, one workflow task and completion. */
export async function emptyWorkflow(): Promise<null> {
  return null;
}
