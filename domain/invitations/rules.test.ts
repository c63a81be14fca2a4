import { describe, expect, it } from '@jest/globals';
import { nextInvitationStep, REMINDER_BEFORE_EXPIRY_MS } from './rules.js';

const HOUR = 60 * 60 * 1000;
const created = Date.parse('2026-11-22T10:00:00Z');
const pending = { status: 'pending', expiresAt: new Date(created + 48 * HOUR).toISOString() };

describe('nextInvitationStep', () => {
  it('waits until the reminder, 24 hours before expiry', () => {
    expect(
      nextInvitationStep(pending, { nowMs: created, workflowStartedMs: created, reminderSent: false }),
    ).toEqual({
      kind: 'wait',
      untilMs: created + 48 * HOUR - REMINDER_BEFORE_EXPIRY_MS,
    });
  });

  it('reminds once at the reminder time, then waits for expiry', () => {
    const at = created + 24 * HOUR;
    expect(
      nextInvitationStep(pending, { nowMs: at, workflowStartedMs: created, reminderSent: false }),
    ).toEqual({ kind: 'remind' });
    expect(
      nextInvitationStep(pending, { nowMs: at, workflowStartedMs: created, reminderSent: true }),
    ).toEqual({
      kind: 'wait',
      untilMs: created + 48 * HOUR,
    });
  });

  it('expires at the expiry time', () => {
    expect(
      nextInvitationStep(pending, {
        nowMs: created + 48 * HOUR,
        workflowStartedMs: created,
        reminderSent: true,
      }),
    ).toEqual({
      kind: 'expire',
    });
  });

  it('sends no reminder for an invitation that lives less than the lead time', () => {
    const short = { status: 'pending', expiresAt: new Date(created + 2 * HOUR).toISOString() };
    expect(
      nextInvitationStep(short, { nowMs: created, workflowStartedMs: created, reminderSent: false }),
    ).toEqual({
      kind: 'wait',
      untilMs: created + 2 * HOUR,
    });
  });

  it.each([
    ['accepted', 'accepted'],
    ['rejected', 'rejected'],
    ['canceled', 'canceled'],
  ])('ends when the invitation is %s', (status, outcome) => {
    expect(
      nextInvitationStep(
        { ...pending, status },
        { nowMs: created, workflowStartedMs: created, reminderSent: false },
      ),
    ).toEqual({
      kind: 'end',
      outcome,
    });
  });

  it('ends when the invitation row is gone', () => {
    expect(
      nextInvitationStep(null, { nowMs: created, workflowStartedMs: created, reminderSent: false }),
    ).toEqual({
      kind: 'end',
      outcome: 'deleted',
    });
  });
});
