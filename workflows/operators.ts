import { patched, setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { ENTITY_KIND, STATUS, STATUS_PATCH } from '../domain/operators/rules.js';

/**
 * Keeps the workflow's `TollgateStatus` and current details (the Temporal UI's "Current Details")
 * up to date. Status changes are upserted only when the status differs, only in histories that
 * have the patch, and only when the run was started with Tollgate's search attributes: a namespace
 * without them registered would fail the workflow task instead.
 */
export function operatorView() {
  let status = workflowInfo().typedSearchAttributes.get(STATUS);
  return {
    status(next: string): void {
      if (next === status) return;
      if (workflowInfo().typedSearchAttributes.get(ENTITY_KIND) === undefined) return;
      if (!patched(STATUS_PATCH)) return;
      status = next;
      upsertSearchAttributes([{ key: STATUS, value: next }]);
    },
    details(markdown: string): void {
      setCurrentDetails(markdown);
    },
  };
}
