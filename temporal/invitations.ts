// The `invitation:<id>` workflows as the invitation domain sees them (InvitationWorkflows).

import type { Client } from '@temporalio/client';
import {
  INVITATION_SIGNALS,
  invitationWorkflowId,
  type InvitationWorkflowInput,
  type SendInvitationEmailRequest,
} from '../domain/invitations/rules.js';
import type { InvitationWorkflows } from '../domain/invitations/service.js';
import type { invitationWorkflow } from '../workflows/invitations.js';
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { signalIfRunning, startMissing, startOnce } from './workflow-control.js';

export function temporalInvitationWorkflows(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): InvitationWorkflows {
  const options = async (invitationId: string, sendInitialEmail: boolean) => ({
    workflowId: invitationWorkflowId(invitationId),
    taskQueue,
    args: [{ invitationId, sendInitialEmail }] as [InvitationWorkflowInput],
    ...(await operators.entity('invitation', invitationId, 'pending')),
  });
  return {
    async requestEmail(invitationId, requestId) {
      await temporal.workflow.signalWithStart<typeof invitationWorkflow, [SendInvitationEmailRequest]>(
        'invitationWorkflow',
        {
          ...(await options(invitationId, false)),
          signal: INVITATION_SIGNALS.sendEmail,
          signalArgs: [{ requestId }],
        },
      );
    },
    signalClosed: (invitationId) =>
      signalIfRunning(temporal, invitationWorkflowId(invitationId), INVITATION_SIGNALS.closed),
    startMissing: (invitationIds) =>
      startMissing(temporal, invitationIds, invitationWorkflowId, (invitationId) =>
        startOnce(async () =>
          temporal.workflow.start<typeof invitationWorkflow>(
            'invitationWorkflow',
            await options(invitationId, true),
          ),
        ),
      ),
  };
}
