import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createInvitationActivities } from '../activities/invitations.js';
import { invitationWorkflowId } from '../domain/invitations/rules.js';
import {
  notifyInvitationClosed,
  requestInvitationEmail,
  type InvitationWorkflows,
} from '../domain/invitations/service.js';
import { createLogger } from '../infra/logger.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { createOrganization } from '../test/factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';
import type { InvitationOutcome } from './invitations.js';
import { temporalInvitationWorkflows } from '../temporal/invitations.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('invitationWorkflow (time-skipping)', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;

  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
    database = await createTestDatabase();
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    await env?.teardown();
    await database?.drop();
  });

  async function createInvitation() {
    const organization = await createOrganization(database.db, { name: 'Acme' });
    const inviter = await database.db.user.create({
      data: { name: 'Ines Inviter', email: `inviter-${randomUUID()}@example.test` },
    });
    return database.db.invitation.create({
      data: {
        organizationId: organization.id,
        email: `invitee-${randomUUID()}@example.test`,
        role: 'admin',
        inviterId: inviter.id,
        // The server's clock, not the wall clock: earlier tests moved it days ahead.
        expiresAt: new Date((await env.currentTimeMs()) + 2 * DAY_MS),
      },
      include: { inviter: true },
    });
  }

  async function withWorker<T>(work: (workflows: InvitationWorkflows) => Promise<T>) {
    const taskQueue = `invitations-${randomUUID()}`;
    const workflows = temporalInvitationWorkflows(env.client, taskQueue);
    const logger = createLogger({ level: 'silent', name: 'test' });
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      activities: createInvitationActivities({
        db: database.db,
        mailer: createMailer({ db: database.db, from: 'no-reply@tollgate.test', logger }),
        publicUrl: 'http://tollgate.test',
        workflows: { invitations: workflows },
      }),
    });
    return worker.runUntil(work(workflows));
  }

  const emailsTo = (address: string) =>
    database.db.emailMessage.findMany({ where: { toAddress: address }, orderBy: { createdAt: 'asc' } });

  async function waitForEmails(address: string, count: number) {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if ((await emailsTo(address)).length >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`expected ${count} emails to ${address}`);
  }

  const result = (id: string) =>
    env.client.workflow.getHandle(invitationWorkflowId(id)).result() as Promise<InvitationOutcome>;

  it('sends the invitation, one reminder a day before expiry, and tells the inviter when it expires after 2 days', async () => {
    const invitation = await createInvitation();
    const started = Date.now();
    const outcome = await withWorker(async (workflows) => {
      await requestInvitationEmail(workflows, invitation.id);
      return result(invitation.id);
    });
    expect(outcome).toBe('expired');
    expect(Date.now() - started).toBeLessThan(30_000);

    const toInvitee = await emailsTo(invitation.email);
    expect(toInvitee.map((email) => email.subject)).toEqual([
      'Ines Inviter invited you to Acme on Tollgate',
      'Reminder: your invitation to Acme expires soon',
    ]);
    expect(toInvitee[0]?.text).toContain(`http://tollgate.test/invitations/${invitation.id}`);
    expect(toInvitee[0]?.text).toContain('as admin');
    const toInviter = await emailsTo(invitation.inviter.email);
    expect(toInviter.map((email) => email.subject)).toEqual([
      `Your invitation to ${invitation.email} expired`,
    ]);
  });

  it('ends early, without a reminder, when the invitation is accepted', async () => {
    const invitation = await createInvitation();
    const outcome = await withWorker(async (workflows) => {
      await requestInvitationEmail(workflows, invitation.id);
      await waitForEmails(invitation.email, 1);
      await database.db.invitation.update({ where: { id: invitation.id }, data: { status: 'accepted' } });
      await notifyInvitationClosed(workflows, invitation.id);
      return result(invitation.id);
    });
    expect(outcome).toBe('accepted');
    expect(await emailsTo(invitation.email)).toHaveLength(1);
    expect(await emailsTo(invitation.inviter.email)).toHaveLength(0);
  });

  it('respects a change made without a signal when it next wakes (a re-invite canceling it)', async () => {
    const invitation = await createInvitation();
    const outcome = await withWorker(async (workflows) => {
      await requestInvitationEmail(workflows, invitation.id);
      await waitForEmails(invitation.email, 1);
      await database.db.invitation.update({ where: { id: invitation.id }, data: { status: 'canceled' } });
      return result(invitation.id);
    });
    expect(outcome).toBe('canceled');
    expect((await emailsTo(invitation.email)).map((email) => email.subject)).toEqual([
      'Ines Inviter invited you to Acme on Tollgate',
    ]);
    expect(await emailsTo(invitation.inviter.email)).toHaveLength(0);
  });

  it('sends the invitation again on every re-send request', async () => {
    const invitation = await createInvitation();
    const outcome = await withWorker(async (workflows) => {
      await requestInvitationEmail(workflows, invitation.id);
      await waitForEmails(invitation.email, 1);
      await requestInvitationEmail(workflows, invitation.id);
      await waitForEmails(invitation.email, 2);
      await database.db.invitation.update({ where: { id: invitation.id }, data: { status: 'rejected' } });
      await notifyInvitationClosed(workflows, invitation.id);
      return result(invitation.id);
    });
    expect(outcome).toBe('rejected');
    const subjects = (await emailsTo(invitation.email)).map((email) => email.subject);
    expect(subjects).toEqual([
      'Ines Inviter invited you to Acme on Tollgate',
      'Ines Inviter invited you to Acme on Tollgate',
    ]);
  });
});
