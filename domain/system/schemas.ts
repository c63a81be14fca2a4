import { z } from 'zod';

export const checkStatusSchema = z.enum(['ok', 'error']);

export const readinessCheckSchema = z.object({
  status: checkStatusSchema,
  duration_ms: z.number().int().nonnegative(),
  detail: z.string().optional(),
});

export const readinessChecksSchema = z.object({
  postgres: readinessCheckSchema,
  temporal: readinessCheckSchema,
  worker: readinessCheckSchema,
});

export const readinessReportSchema = z.object({
  status: checkStatusSchema,
  checks: readinessChecksSchema,
  checked_at: z.iso.datetime({ offset: true }),
});

export const publicSettingsSchema = z.object({
  version: z.string(),
  mode: z.enum(['sandbox', 'live']),
  temporal_ui_url: z.url().nullable(),
  /** The namespace of the deployment's workflows, for links into the Temporal UI. */
  temporal_namespace: z.string(),
  /** Whether emails are kept in the dev mailbox (sandbox without SMTP), readable at /api/dev/mailbox. */
  dev_mailbox: z.boolean(),
  /** Live mode's key for Stripe Elements on pages outside a checkout (the portal's card form). */
  stripe_publishable_key: z.string().nullable(),
});

export const mailboxMessageSchema = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: z.iso.datetime({ offset: true }),
});

export type ReadinessCheck = z.infer<typeof readinessCheckSchema>;
export type ReadinessChecks = z.infer<typeof readinessChecksSchema>;
export type ReadinessReport = z.infer<typeof readinessReportSchema>;
export type PublicSettings = z.infer<typeof publicSettingsSchema>;
export type MailboxMessage = z.infer<typeof mailboxMessageSchema>;
