// The operators' page's answer (`GET /api/operators/stuck-work`, platform admins only).
import { z } from 'zod';
import { STUCK_WORK_KINDS } from './stuck-work.js';

const perKind = <T extends z.ZodType>(value: T) =>
  z.object(
    Object.fromEntries(STUCK_WORK_KINDS.map((kind) => [kind, value])) as Record<
      (typeof STUCK_WORK_KINDS)[number],
      T
    >,
  );

export const stuckWorkItemSchema = z.object({
  kind: z.enum(STUCK_WORK_KINDS),
  /** Since when it has been stuck: the first failing attempt, event or confirmation. */
  since: z.iso.datetime({ offset: true }),
  /** What is stuck, in a line: "Attempt 9 of chargeSubscription (subscriptionWorkflow)". */
  summary: z.string(),
  /** The last error, or the endpoint's URL and last answer; null when there is nothing to add. */
  detail: z.string().nullable(),
  /** The workflow doing (or owed) the work, for the Temporal UI; null when none is known. */
  workflow_id: z.string().nullable(),
  organization: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  entity: z.object({ kind: z.string(), id: z.string() }).nullable(),
  /** Where the organization's members see the entity. */
  dashboard_url: z.string().nullable(),
});

export type StuckWorkItem = z.infer<typeof stuckWorkItemSchema>;

export const stuckWorkReportSchema = z.object({
  checked_at: z.iso.datetime({ offset: true }),
  /** Stuck entries of each kind (the outbox's: events), each counted up to the list's cap. */
  counts: perKind(z.number().int().min(0)),
  /** Each kind's threshold, in words. */
  thresholds: perKind(z.string()),
  items: z.array(stuckWorkItemSchema),
});

export type StuckWorkReport = z.infer<typeof stuckWorkReportSchema>;
