import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { invitationWorkflowId } from '../../domain/invitations/rules.js';
import { RECONCILE_MIN_AGE_MS, reconcileInvitationWorkflows } from '../../domain/invitations/service.js';
import { ensureSchedules, reconcileInvitationsScheduleId } from '../../temporal/schedules.js';
import { taskQueues } from '../../temporal/task-queues.js';
import { signUpUser } from '../../test/auth-client.js';
import { useTestStack } from '../../test/stack.js';

describe('invitations through /api/auth and their workflows', () => {
  const env = useTestStack();

  async function ownerWithOrganization() {
    const owner = await signUpUser(env.stack.baseUrl);
    const created = await owner.client.organization.create({
      name: 'Invite Co',
      slug: `invite-${randomUUID().slice(0, 8)}`,
    });
    if (!created.data) throw new Error('organization not created');
    return { owner, organizationId: created.data.id };
  }

  async function waitForEmail(to: string, subjectPart: string) {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const email = await env.database.db.emailMessage.findFirst({
        where: { toAddress: to, subject: { contains: subjectPart } },
      });
      if (email) return email;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no email about "${subjectPart}" to ${to}`);
  }

  const handleOf = (invitationId: string) =>
    env.stack.temporal.workflow.getHandle(invitationWorkflowId(invitationId));

  it('starts invitation:<id> on invite, emails the invitee, and ends when the invitee accepts', async () => {
    const { owner, organizationId } = await ownerWithOrganization();
    const inviteeEmail = `invitee-${randomUUID()}@example.test`;
    const invited = await owner.client.organization.inviteMember({
      email: inviteeEmail,
      role: 'admin',
      organizationId,
    });
    expect(invited.error).toBeNull();
    const invitationId = invited.data?.id ?? '';

    const email = await waitForEmail(inviteeEmail, 'Invite Co');
    expect(email.text).toContain(`/invitations/${invitationId}`);
    expect((await handleOf(invitationId).describe()).status.name).toBe('RUNNING');

    const invitee = await signUpUser(env.stack.baseUrl, { email: inviteeEmail });
    const accepted = await invitee.client.organization.acceptInvitation({ invitationId });
    expect(accepted.error).toBeNull();
    expect(accepted.data?.member).toMatchObject({ organizationId, userId: invitee.user.id, role: 'admin' });
    expect(await handleOf(invitationId).result()).toBe('accepted');
  });

  it('ends the workflow when an admin cancels the invitation', async () => {
    const { owner, organizationId } = await ownerWithOrganization();
    const invited = await owner.client.organization.inviteMember({
      email: `x-${randomUUID()}@example.test`,
      role: 'member',
      organizationId,
    });
    const invitationId = invited.data?.id ?? '';
    await owner.client.organization.cancelInvitation({ invitationId });
    expect(await handleOf(invitationId).result()).toBe('canceled');
  });

  it('heals an invitation whose workflow never started (a crash between the write and the start)', async () => {
    const { owner, organizationId } = await ownerWithOrganization();
    const inviteeEmail = `orphan-${randomUUID()}@example.test`;
    // Written as Better Auth would, but no workflow was started: the process "died" in between.
    const orphan = await env.database.db.invitation.create({
      data: {
        organizationId,
        email: inviteeEmail,
        role: 'member',
        inviterId: owner.user.id,
        expiresAt: new Date(Date.now() + 2 * 86_400_000),
        createdAt: new Date(Date.now() - RECONCILE_MIN_AGE_MS - 1000),
      },
    });
    await expect(handleOf(orphan.id).describe()).rejects.toThrow();

    const first = await reconcileInvitationWorkflows(env.database.db, env.stack.workflows.invitations);
    expect(first.started).toContain(invitationWorkflowId(orphan.id));
    await waitForEmail(inviteeEmail, 'Invite Co');
    expect((await handleOf(orphan.id).describe()).status.name).toBe('RUNNING');

    const second = await reconcileInvitationWorkflows(env.database.db, env.stack.workflows.invitations);
    expect(second.started).not.toContain(invitationWorkflowId(orphan.id));
    expect(await env.database.db.emailMessage.count({ where: { toAddress: inviteeEmail } })).toBe(1);
  });
});

describe('the reconcile-invitations schedule', () => {
  const env = useTestStack();

  it('is created once, every 5 minutes, and its runs start missing invitation workflows', async () => {
    const taskQueue = taskQueues(env.stack.taskQueuePrefix).main;
    await ensureSchedules(env.stack.temporal, taskQueue, env.stack.workflows);
    await ensureSchedules(env.stack.temporal, taskQueue, env.stack.workflows);
    const schedule = env.stack.temporal.schedule.getHandle(reconcileInvitationsScheduleId(taskQueue));
    try {
      const description = await schedule.describe();
      expect(description.spec.intervals).toEqual([expect.objectContaining({ every: 5 * 60 * 1000 })]);

      const owner = await signUpUser(env.stack.baseUrl);
      const organization = await env.database.db.organization.create({
        data: { name: 'Healed Co', slug: `healed-${randomUUID().slice(0, 8)}` },
      });
      const orphan = await env.database.db.invitation.create({
        data: {
          organizationId: organization.id,
          email: `orphan-${randomUUID()}@example.test`,
          role: 'member',
          inviterId: owner.user.id,
          expiresAt: new Date(Date.now() + 2 * 86_400_000),
          createdAt: new Date(Date.now() - RECONCILE_MIN_AGE_MS - 1000),
        },
      });
      await schedule.trigger();
      let status = '';
      for (let attempt = 0; attempt < 100 && status !== 'RUNNING'; attempt += 1) {
        status = await env.stack.temporal.workflow
          .getHandle(invitationWorkflowId(orphan.id))
          .describe()
          .then((execution) => execution.status.name as string)
          .catch(() => '');
        if (status !== 'RUNNING') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe('RUNNING');
    } finally {
      await schedule.delete();
    }
  });
});
