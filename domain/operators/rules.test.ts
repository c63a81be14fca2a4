import { describe, expect, it } from '@jest/globals';
import { currentDetails, waitingForSentence, type OperatorWait } from './rules.js';

const at = (iso: string) => Date.parse(iso);

describe('waitingForSentence and currentDetails (what operators read of a workflow)', () => {
  it('says who is waited for and until when, in words and ISO-8601 UTC to the second', () => {
    const wait: OperatorWait = {
      kind: 'waiting',
      waitingFor: 'the buyer to confirm payment',
      until: { atMs: at('2026-11-28T11:00:00.731Z'), then: 'the checkout expires' },
      sinceMs: at('2026-11-28T10:01:00Z'),
      reason: 'They have not confirmed the checkout yet.',
    };
    expect(waitingForSentence(wait)).toBe(
      'the buyer to confirm payment, until the checkout expires at 2026-11-28T11:00:00Z',
    );
    expect(currentDetails(wait)).toBe(
      '**Waiting** for the buyer to confirm payment, until the checkout expires at 2026-11-28T11:00:00Z.\n\nThey have not confirmed the checkout yet.',
    );
  });

  it('says since when, and that no deadline ends a wait only someone else can end', () => {
    const wait: OperatorWait = {
      kind: 'waiting',
      waitingFor: 'the payment processor to settle the refund',
      until: null,
      sinceMs: at('2026-11-28T10:00:00Z'),
      reason: 'The refund is pending there.',
    };
    expect(waitingForSentence(wait)).toBe(
      'the payment processor to settle the refund, since 2026-11-28T10:00:00Z, with no deadline',
    );
    expect(currentDetails(wait)).toMatch(/^\*\*Waiting\*\* for the payment processor .* no deadline\.\n\n/);
  });

  it('tells its own work from a wait on someone else, with the same words in both', () => {
    const wait: OperatorWait = {
      kind: 'working',
      working: 'saving the card with the payment processor',
      sinceMs: at('2026-11-28T10:00:00Z'),
      until: { atMs: at('2026-11-28T10:01:00Z'), then: 'the buyer is told to try again later' },
      reason: 'The buyer waits in the portal.',
    };
    expect(waitingForSentence(wait)).toBe(
      'its own work: saving the card with the payment processor, since 2026-11-28T10:00:00Z, until the buyer is told to try again later at 2026-11-28T10:01:00Z',
    );
    expect(currentDetails(wait)).toBe(
      '**Working**: saving the card with the payment processor, since 2026-11-28T10:00:00Z, until the buyer is told to try again later at 2026-11-28T10:01:00Z.\n\nThe buyer waits in the portal.',
    );
  });

  it('says a finished run waits for nothing, and how it ended', () => {
    const wait: OperatorWait = {
      kind: 'finished',
      outcome: 'the checkout expired',
      atMs: at('2026-11-28T11:00:00Z'),
    };
    expect(waitingForSentence(wait)).toBe('nothing: the checkout expired at 2026-11-28T11:00:00Z');
    expect(currentDetails(wait)).toBe('**Finished**: the checkout expired at 2026-11-28T11:00:00Z.');
  });
});
