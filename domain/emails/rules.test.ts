import { describe, expect, it } from '@jest/globals';
import {
  deleteAccountEmail,
  invitationEmail,
  invitationReminderEmail,
  newOrderEmail,
  passwordResetEmail,
  subscriptionPaymentFailedEmail,
  subscriptionReceiptEmail,
  subscriptionStartedEmail,
  verificationEmail,
  webhookEndpointDisabledEmail,
} from './rules.js';

describe('sign-in emails', () => {
  it('carry the action link in text and HTML', () => {
    const email = verificationEmail({
      name: 'Ada',
      url: 'https://pay.example/api/auth/verify-email?token=abc',
    });
    expect(email.subject).toBe('Verify your email address');
    expect(email.text).toContain('Hello Ada,');
    expect(email.text).toContain('https://pay.example/api/auth/verify-email?token=abc');
    expect(email.html).toContain('href="https://pay.example/api/auth/verify-email?token=abc"');
  });

  it('escape names and links in HTML', () => {
    const email = passwordResetEmail({ name: '<b>Eve</b>', url: 'https://x.test/?a=1&b="2"' });
    expect(email.html).not.toContain('<b>Eve</b>');
    expect(email.html).toContain('&#60;b&#62;Eve');
    expect(email.html).toContain('href="https://x.test/?a=1&#38;b=&#34;2&#34;"');
  });

  it('state how long the link works (spec §9: 1 hour for resets, 24 hours for deletion)', () => {
    expect(passwordResetEmail({ name: 'A', url: 'u' }).text).toContain('one hour');
    expect(deleteAccountEmail({ name: 'A', url: 'u' }).text).toContain('24 hours');
  });
});

describe('webhook endpoint disabled email', () => {
  it('names the endpoint and why it was disabled', () => {
    const gone = webhookEndpointDisabledEmail({
      ownerName: 'Ada',
      organizationName: 'Acme',
      endpointUrl: 'https://hooks.acme.test/polar',
      reason: 'gone',
      url: 'https://pay.example/',
    });
    expect(gone.subject).toBe('Webhook endpoint disabled for Acme');
    expect(gone.text).toContain('https://hooks.acme.test/polar');
    expect(gone.text).toContain('410 Gone');
    const failing = webhookEndpointDisabledEmail({
      ownerName: 'Ada',
      organizationName: 'Acme',
      endpointUrl: 'https://hooks.acme.test/polar',
      reason: 'failing',
      url: 'https://pay.example/',
    });
    expect(failing.text).toContain('last 10 events');
  });
});

describe('subscription emails', () => {
  const seller = {
    organizationName: 'Acme',
    organizationEmail: null,
    organizationWebsite: null,
    portalUrl: 'https://pay.example/portal/acme',
  };

  it('a started plan says what it costs over time, what usage adds, and the next payment', () => {
    const email = subscriptionStartedEmail({
      ...seller,
      customerName: 'Ada',
      productName: 'Pro',
      price: '$16.00 today, then $20.00 / month plus usage',
      usage: 'Usage is billed at the end of each month for what you used in it: $0.002 per unit of Tokens.',
      nextPayment: { amount: '$20.00 plus usage', on: '3 March 2026' },
      benefitNotes: [],
    });
    expect(email.text).toContain(
      'Thank you for subscribing to Pro. You pay $16.00 today, then $20.00 / month plus usage.',
    );
    expect(email.text).toContain('$0.002 per unit of Tokens.');
    expect(email.text).toContain('Your next payment, $20.00 plus usage, is on 3 March 2026');
    expect(email.text).not.toContain('every month');
  });

  it('a renewal receipt says what the plan costs from now on', () => {
    const receipt = (price: string | null) =>
      subscriptionReceiptEmail({
        ...seller,
        customerName: 'Ada',
        productName: 'Pro',
        amount: '$16.00',
        card: null,
        periodStart: '3 March 2026',
        periodEnd: '3 April 2026',
        lines: [],
        price,
      }).text;
    expect(receipt('$16.00 until 3 April 2026, then $20.00 / month')).toContain(
      'Your plan costs $16.00 until 3 April 2026, then $20.00 / month.',
    );
    expect(receipt(null)).not.toContain('Your plan costs');
  });

  describe('a failed try', () => {
    const failedTry = (
      failure: Parameters<typeof subscriptionPaymentFailedEmail>[0]['failure'],
      overrides: Partial<Parameters<typeof subscriptionPaymentFailedEmail>[0]> = {},
    ) =>
      subscriptionPaymentFailedEmail({
        ...seller,
        customerName: 'Ada',
        productName: 'Pro',
        amount: '$20.00',
        failure,
        nextAttemptOn: '5 March 2026',
        ...overrides,
      });

    it("a declined card is named with the processor's words, written for the buyer", () => {
      const email = failedTry({ kind: 'declined', reason: 'Your card has insufficient funds.' });
      expect(email.subject).toBe('Your payment for Pro failed');
      expect(email.text).toContain(
        'We could not charge $20.00 to your card for Pro: Your card has insufficient funds.',
      );
      expect(email.text).toContain('We will try your card again on 5 March 2026.');
      expect(email.text).toContain(
        'To pay with another card, or to try again now, sign in to your account page: https://pay.example/portal/acme',
      );
    });

    it('a refused request says nothing was charged, that the card is not at fault, and what to do', () => {
      const email = failedTry({ kind: 'refused' }, { organizationEmail: 'billing@acme.test' });
      expect(email.subject).toBe('Your payment for Pro failed');
      expect(email.text).toContain(
        'We could not take your payment of $20.00 for Pro because of a problem on our side, not with your card. You have not been charged.',
      );
      expect(email.text).toContain('We will try your card again on 5 March 2026.');
      expect(email.text).toContain(
        'If it keeps happening, please contact us at billing@acme.test. To try again now, sign in to your account page: https://pay.example/portal/acme',
      );
      expect(email.text).not.toMatch(/declined|processor|refused/i);
      expect(failedTry({ kind: 'refused' }).text).toContain('If it keeps happening, please contact us.');
    });

    it('after the last try, says the plan ended', () => {
      const email = failedTry({ kind: 'refused' }, { nextAttemptOn: null });
      expect(email.subject).toBe('Your Pro subscription ended: payment failed');
      expect(email.text).toContain('This was the last try, so your Pro subscription has ended.');
    });
  });
});

describe('invitation emails', () => {
  it("give the expiry on the organization's clocks, naming the zone", () => {
    const expiresAt = new Date('2026-11-24T23:30:00Z');
    const invitation = invitationEmail({
      inviterName: 'Ada',
      organizationName: 'Acme',
      role: 'admin',
      url: 'https://tollgate.test/invitations/1',
      expiresAt,
      timeZone: 'Europe/Berlin',
    });
    expect(invitation.text).toContain('The invitation is open until November 25, 2026 at 12:30 AM GMT+1.');
    const reminder = invitationReminderEmail({
      organizationName: 'Acme',
      url: 'https://tollgate.test/invitations/1',
      expiresAt,
      timeZone: 'UTC',
    });
    expect(reminder.text).toContain('expires on November 24, 2026 at 11:30 PM UTC.');
  });
});

describe('new order email', () => {
  it('tells a member what sold, to whom, for how much, and links the order and the switch', () => {
    const email = newOrderEmail({
      memberName: 'Paula',
      organizationName: 'Acme',
      orderNumber: '3F2A91C0',
      productName: 'Field guide',
      amount: '$20.00',
      customer: 'Ada Buyer (ada@example.test)',
      placedAt: 'November 24, 2026 at 11:30 PM UTC',
      orderUrl: 'https://tollgate.test/dashboard/orders/3f2a91c0',
      settingsUrl: 'https://tollgate.test/dashboard/settings#notifications',
    });
    expect(email.subject).toBe('New order 3F2A91C0: Field guide for $20.00');
    expect(email.text).toContain('Ada Buyer (ada@example.test) bought Field guide from Acme for $20.00.');
    expect(email.text).toContain('Order number: 3F2A91C0');
    expect(email.text).toContain('Placed on November 24, 2026 at 11:30 PM UTC.');
    expect(email.text).toContain('Open the order: https://tollgate.test/dashboard/orders/3f2a91c0');
    expect(email.text).toContain('https://tollgate.test/dashboard/settings#notifications');
    expect(email.html).toContain(
      '<a href="https://tollgate.test/dashboard/orders/3f2a91c0">Open the order</a>',
    );
  });
});
