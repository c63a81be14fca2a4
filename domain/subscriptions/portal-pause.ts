// The buyer's pause and resume in the portal (docs/subscriptions.md, "Pause and resume"): the same
// changes as the seller's PATCH (pausing.ts), allowed only when the organization turned on
// `customer_portal_settings.subscription.pause`; otherwise Polar's 403 `PauseResumeNotAllowed`,
// before the plan's own state is looked at, so a buyer learns nothing more than "not here".
import type { Db } from '../../infra/db.js';
import { findOrganizationById } from '../organizations/repository.js';
import { AppError } from '../platform/errors.js';
import { cancelScheduledPause, pauseAtPeriodEnd, resumeNow } from './pausing.js';

export type PortalPauseBody = { pause_at_period_end: boolean; resumes_at?: string | null } | { resume: true };

/** The change the portal's pause or resume asks for, once the organization allows it. */
export async function portalPauseChange(db: Db, organizationId: string, body: PortalPauseBody) {
  const organization = await findOrganizationById(db.sql, organizationId);
  if (!organization?.customerPortalPause) throw new AppError('PauseResumeNotAllowed');
  if ('resume' in body) return resumeNow;
  if (!body.pause_at_period_end) return cancelScheduledPause;
  return pauseAtPeriodEnd(body.resumes_at ? new Date(body.resumes_at) : null);
}
