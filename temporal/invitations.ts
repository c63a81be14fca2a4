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
import { signalIfRunning, startMissing, startOnce } from './workflow-control.js';

export function temporalInvitationWorkflows(temporal: Client, taskQueue: string): InvitationWorkflows {
  const options = (invitationId: string, sendInitialEmail: boolean) => ({
    workflowId: invitationWorkflowId(invitationId),
    taskQueue,
    args: [{ invitationId, sendInitialEmail }] as [InvitationWorkflowInput],
  });
  return {
    async requestEmail(invitationId, requestId) {
      await temporal.workflow.signalWithStart<typeof invitationWorkflow, [SendInvitationEmailRequest]>(
        'invitationWorkflow',
        {
          ...options(invitationId, false),
          signal: INVITATION_SIGNALS.sendEmail,
          signalArgs: [{ requestId }],
        },
      );
    },
    signalClosed: (invitationId) =>
      signalIfRunning(temporal, invitationWorkflowId(invitationId), INVITATION_SIGNALS.closed),
    startMissing: (invitationIds) =>
      startMissing(temporal, invitationIds, invitationWorkflowId, (invitationId) =>
        startOnce(() =>
          temporal.workflow.start<typeof invitationWorkflow>(
            'invitationWorkflow',
            options(invitationId, true),
          ),
        ),
      ),
  };
}
