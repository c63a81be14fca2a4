// The payment processor's configuration problems, per organization (docs/payments.md, "Retry
// contract"): set when a workflow's step meets one, cleared when the step goes through, shown to
// the organization's owners and admins.
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { assertCanManage } from '../access/service.js';
import type { Db } from '../../infra/db.js';
import {
  deleteProcessorConfigurationProblem,
  findProcessorConfigurationProblem,
  upsertProcessorConfigurationProblem,
} from './repository.js';
import type { ProcessorEntity } from './rules.js';
import type { ProcessorStatus } from './schemas.js';

export function recordProcessorConfigurationProblem(
  db: Db,
  input: { entity: ProcessorEntity; processor: string; code: string; message: string; at: Date },
): Promise<void> {
  const { entity, ...problem } = input;
  return upsertProcessorConfigurationProblem(db.sql, entity, problem);
}

export function clearProcessorConfigurationProblem(db: Db, entity: ProcessorEntity): Promise<void> {
  return deleteProcessorConfigurationProblem(db.sql, entity);
}

/** Owners and admins (and the organization's tokens) only: the fix is theirs or their operator's. */
export async function getProcessorStatus(
  db: Db,
  caller: Caller,
  organizationId: string,
): Promise<ProcessorStatus> {
  await assertCanManage(db, caller, organizationId, ORGANIZATION_MANAGERS);
  const problem = await findProcessorConfigurationProblem(db, organizationId);
  return {
    configuration_problem: problem
      ? {
          processor: problem.processor,
          code: problem.code,
          message: problem.message,
          since: problem.since.toISOString(),
          last_seen_at: problem.lastSeenAt.toISOString(),
        }
      : null,
  };
}
