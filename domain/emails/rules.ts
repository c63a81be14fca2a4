// The emails of the sign-in flows: plain text plus a minimal HTML version, no remote assets.

import { DOCUMENT_LOCALE, formatInstant } from '../dates/rules.js';

export type RenderedEmail = { subject: string; text: string; html: string };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function render(
  subject: string,
  greeting: string,
  paragraphs: string[],
  action: { label: string; url: string } | null,
  signature = 'Tollgate',
): RenderedEmail {
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    `— ${signature}`,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(action ? [`<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`] : []),
    `<p>— ${escapeHtml(signature)}</p>`,
  ].join('\n');
  return { subject, text, html };
}

const greet = (name: string) => `Hello ${name || 'there'},`;

/** An instant in an email: its reader may be anywhere, so the zone is named ("November 24, 2026 at 3:04 PM UTC"). */
const emailInstant = (at: Date, timeZone: string) =>
  formatInstant(at, { timeZone, locale: DOCUMENT_LOCALE, style: 'long', withZone: true });

export function verificationEmail(input: { name: string; url: string }): RenderedEmail {
  return render(
    'Verify your email address',
    greet(input.name),
    ['Confirm that this address is yours to finish setting up your Tollgate account.'],
    {
      label: 'Verify email',
      url: input.url,
    },
  );
}

export function passwordResetEmail(input: { name: string; url: string }): RenderedEmail {
  return render(
    'Reset your Tollgate password',
    greet(input.name),
    [
      'Someone asked to reset the password of your account. The link works for one hour; if it was not you, ignore this email.',
    ],
    { label: 'Choose a new password', url: input.url },
  );
}

export function changeEmailConfirmation(input: {
  name: string;
  newEmail: string;
  url: string;
}): RenderedEmail {
  return render(
    'Confirm your new email address',
    greet(input.name),
    [`Confirm that your account's email should change to ${input.newEmail}.`],
    {
      label: 'Confirm the change',
      url: input.url,
    },
  );
}

export function deleteAccountEmail(input: { name: string; url: string }): RenderedEmail {
  return render(
    'Confirm deleting your Tollgate account',
    greet(input.name),
    [
      'Someone asked to delete your account and everything it owns. The link works for 24 hours; if it was not you, ignore this email and change your password.',
    ],
    { label: 'Delete my account', url: input.url },
  );
}

export function invitationEmail(input: {
  inviterName: string;
  organizationName: string;
  role: string;
  url: string;
  expiresAt: Date;
  /** The organization's: the invitee reads its days and times. */
  timeZone: string;
}): RenderedEmail {
  return render(
    `${input.inviterName} invited you to ${input.organizationName} on Tollgate`,
    'Hello,',
    [
      `${input.inviterName} invited you to join ${input.organizationName} as ${input.role}.`,
      `The invitation is open until ${emailInstant(input.expiresAt, input.timeZone)}.`,
    ],
    { label: 'Accept or decline the invitation', url: input.url },
  );
}

export function invitationReminderEmail(input: {
  organizationName: string;
  url: string;
  expiresAt: Date;
  timeZone: string;
}): RenderedEmail {
  return render(
    `Reminder: your invitation to ${input.organizationName} expires soon`,
    'Hello,',
    [
      `Your invitation to join ${input.organizationName} on Tollgate expires on ${emailInstant(input.expiresAt, input.timeZone)}.`,
    ],
    { label: 'Accept or decline the invitation', url: input.url },
  );
}

export function invitationExpiredEmail(input: {
  inviterName: string;
  inviteeEmail: string;
  organizationName: string;
  url: string;
}): RenderedEmail {
  return render(
    `Your invitation to ${input.inviteeEmail} expired`,
    greet(input.inviterName),
    [
      `${input.inviteeEmail} did not answer your invitation to ${input.organizationName} in time. You can invite them again.`,
    ],
    { label: 'Open the members page', url: input.url },
  );
}

export function webhookEndpointDisabledEmail(input: {
  ownerName: string;
  organizationName: string;
  endpointUrl: string;
  reason: 'gone' | 'failing';
  url: string;
}): RenderedEmail {
  const why =
    input.reason === 'gone'
      ? 'It answered 410 Gone, which says it no longer accepts events.'
      : 'Its last 10 events each failed every retry over about three days.';
  return render(
    `Webhook endpoint disabled for ${input.organizationName}`,
    greet(input.ownerName),
    [
      `Tollgate stopped sending webhook events to ${input.endpointUrl}. ${why}`,
      'Events that happen while it is disabled are not sent to it. Fix the receiver, enable the endpoint again, and redeliver the events you need.',
    ],
    { label: 'Open the dashboard', url: input.url },
  );
}

/**
 * Why a try failed, as the buyer may read it: a card decline in the processor's words, which are
 * written for the buyer, or a request the processor refused, whose words are only the seller's.
 */
export type PaymentFailure = { kind: 'declined'; reason: string } | { kind: 'refused' };

/**
 * To the buyer whose renewal could not be charged: what failed, in their money, when the card is
 * tried again (or that the plan ended), and how to reach the seller to change the card. A refused
 * request charged nothing and was no fault of the card, so the buyer reads that instead of a reason.
 */
export function subscriptionPaymentFailedEmail(input: {
  customerName: string | null;
  organizationName: string;
  organizationEmail: string | null;
  organizationWebsite: string | null;
  productName: string;
  amount: string;
  failure: PaymentFailure;
  nextAttemptOn: string | null;
  portalUrl: string;
}): RenderedEmail {
  const next = input.nextAttemptOn
    ? `We will try your card again on ${input.nextAttemptOn}. Your ${input.productName} stays available until then.`
    : `This was the last try, so your ${input.productName} subscription has ended.`;
  const contactUs = input.organizationEmail ? `contact us at ${input.organizationEmail}` : 'contact us';
  const [what, action] =
    input.failure.kind === 'declined'
      ? [
          `We could not charge ${input.amount} to your card for ${input.productName}: ${input.failure.reason}`,
          `To pay with another card, or to try again now, sign in to your account page: ${input.portalUrl}`,
        ]
      : [
          `We could not take your payment of ${input.amount} for ${input.productName} because of a problem on our side, not with your card. You have not been charged.`,
          `If it keeps happening, please ${contactUs}. To try again now, sign in to your account page: ${input.portalUrl}`,
        ];
  return render(
    input.nextAttemptOn
      ? `Your payment for ${input.productName} failed`
      : `Your ${input.productName} subscription ended: payment failed`,
    greet(input.customerName ?? ''),
    [what, next, action],
    sellerContact(input),
    input.organizationName,
  );
}

/**
 * To the buyer whose card's bank wants them to confirm a payment we made without them (3-D Secure
 * on a renewal or a plan change): the portal's link signs them in to the order to confirm it.
 * Sent at the first try and at each later one, which does not charge the card again.
 */
export function subscriptionPaymentConfirmationEmail(
  input: SellerContact & {
    customerName: string | null;
    productName: string;
    amount: string;
    /** Whether the plan was just charged (the first try), or this reminds the buyer. */
    firstTry: boolean;
    /** When the plan ends unless the payment is confirmed; null when this was the last try. */
    endsOn: string | null;
  },
): RenderedEmail {
  const contact = input.organizationEmail
    ? [`Questions? Write to ${input.organizationName} at ${input.organizationEmail}.`]
    : [];
  return render(
    input.endsOn
      ? `Confirm your payment for ${input.productName}`
      : `Your ${input.productName} subscription ended: payment not confirmed`,
    greet(input.customerName ?? ''),
    [
      input.firstTry
        ? `Your bank asks you to confirm the payment of ${input.amount} for ${input.productName} before it goes through.`
        : `Your payment of ${input.amount} for ${input.productName} still waits for you to confirm it with your bank.`,
      input.endsOn
        ? `Confirm it on your account page (this link signs you in for 24 hours and opens your orders). Until you do, your subscription is past due; if it is not paid by ${input.endsOn}, it ends.`
        : `This was the last try, so your ${input.productName} subscription has ended.`,
      ...contact,
    ],
    input.endsOn ? { label: 'Confirm your payment', url: input.portalUrl } : null,
    input.organizationName,
  );
}

type SellerContact = {
  organizationName: string;
  organizationEmail: string | null;
  organizationWebsite: string | null;
  /** The seller's customer portal, where the buyer manages the plan. */
  portalUrl: string;
};

function sellerContact(input: SellerContact) {
  return input.organizationEmail
    ? { label: `Write to ${input.organizationName}`, url: `mailto:${input.organizationEmail}` }
    : input.organizationWebsite
      ? { label: `Visit ${input.organizationName}`, url: input.organizationWebsite }
      : null;
}

/** What the seller's custom benefits tell the buyer (a support address, an invite), one per line. */
export type BenefitNote = { description: string; note: string };

const benefitNoteLines = (notes: readonly BenefitNote[]) =>
  notes.map((benefit) => `${benefit.description}: ${benefit.note}`);

/**
 * To the buyer whose plan just started: what they pay over time (a discount that ends is said to
 * end), what usage adds, and what they pay next and when.
 */
export function subscriptionStartedEmail(
  input: SellerContact & {
    customerName: string | null;
    productName: string;
    /** The plan's price schedule in words: "$16.00 today, then $20.00 / month". */
    price: string;
    /** The metered prices and when they are billed, as a sentence; null without any. */
    usage: string | null;
    /** The next renewal: its amount ("$20.00 plus usage") and its date. */
    nextPayment: { amount: string; on: string } | null;
    benefitNotes: readonly BenefitNote[];
  },
): RenderedEmail {
  return render(
    `Your ${input.productName} subscription has started`,
    greet(input.customerName ?? ''),
    [
      `Thank you for subscribing to ${input.productName}. You pay ${input.price}.`,
      ...(input.usage ? [input.usage] : []),
      ...benefitNoteLines(input.benefitNotes),
      ...(input.nextPayment
        ? [
            `Your next payment, ${input.nextPayment.amount}, is on ${input.nextPayment.on}, charged to the card you paid with.`,
          ]
        : []),
      `To change or cancel your subscription, open your account page (this link signs you in for 24 hours): ${input.portalUrl}`,
    ],
    sellerContact(input),
    input.organizationName,
  );
}

/** To the buyer of a one-time purchase, once it is paid: what they paid for and what it includes. */
export function orderReceiptEmail(
  input: SellerContact & {
    customerName: string | null;
    productName: string;
    /** The order's reference (`orderNumber`), as the confirmation page and the seller show it. */
    orderNumber: string;
    /** Null when nothing was charged (a free product or a full discount). */
    amount: string | null;
    lines: { label: string; amount: string }[];
    benefitNotes: readonly BenefitNote[];
  },
): RenderedEmail {
  return render(
    `Receipt for ${input.productName}`,
    greet(input.customerName ?? ''),
    [
      input.amount
        ? `Thank you for buying ${input.productName}. We received your payment of ${input.amount}.`
        : `Thank you for your order of ${input.productName}.`,
      `Order number: ${input.orderNumber}`,
      ...(input.amount ? input.lines.map((line) => `${line.label}: ${line.amount}`) : []),
      ...benefitNoteLines(input.benefitNotes),
      `Your license keys, downloads and invoices are on your account page (this link signs you in for 24 hours): ${input.portalUrl}`,
    ],
    sellerContact(input),
    input.organizationName,
  );
}

/** To the buyer whose refund went through: how much, for what, and when to expect it. */
export function refundConfirmationEmail(
  input: SellerContact & { customerName: string | null; productName: string; amount: string },
): RenderedEmail {
  return render(
    `Your refund for ${input.productName}`,
    greet(input.customerName ?? ''),
    [
      `${input.organizationName} refunded ${input.amount} for ${input.productName}.`,
      'It goes back to the card you paid with; banks usually take 5 to 10 business days to show it.',
      `Your orders and invoices are on your account page: ${input.portalUrl}`,
    ],
    sellerContact(input),
    input.organizationName,
  );
}

/** What a subscription's receipt says: a renewal's, a plan change's, a trial's first payment's. */
type SubscriptionReceipt = SellerContact & {
  customerName: string | null;
  productName: string;
  amount: string;
  card: string | null;
  periodStart: string;
  periodEnd: string;
  lines: { label: string; amount: string }[];
  /** What the plan costs from now on, in words (a discount that ends says so); null once ended. */
  price: string | null;
};

/** "We charged $20.00 to your visa card ending 4242": the card only when it is known. */
const charged = (input: SubscriptionReceipt) =>
  `We charged ${input.amount}${input.card ? ` to your ${input.card}` : ''}`;
const receiptLines = (input: SubscriptionReceipt) =>
  input.lines.map((line) => `${line.label}: ${line.amount}`);

/** To the buyer after a renewal or a plan change was paid. */
export function subscriptionReceiptEmail(input: SubscriptionReceipt): RenderedEmail {
  return render(
    `Receipt for ${input.productName}`,
    greet(input.customerName ?? ''),
    [
      `${charged(input)} for ${input.productName}, ${input.periodStart} to ${input.periodEnd}.`,
      ...receiptLines(input),
      ...(input.price ? [`Your plan costs ${input.price}.`] : []),
    ],
    sellerContact(input),
    input.organizationName,
  );
}

/** To the buyer who set their plan to cancel: until when they keep it. */
export function subscriptionCanceledEmail(
  input: SellerContact & { customerName: string | null; productName: string; endsOn: string },
): RenderedEmail {
  return render(
    `Your ${input.productName} subscription will end on ${input.endsOn}`,
    greet(input.customerName ?? ''),
    [
      `Your ${input.productName} subscription is cancelled. You keep it until ${input.endsOn} and will not be charged again.`,
      `Changed your mind? Keep it from your account page: ${input.portalUrl}`,
    ],
    sellerContact(input),
    input.organizationName,
  );
}

/**
 * To the buyer whose free trial just started: until when it is free, what they pay after it and
 * when the first payment is, and that cancelling before then costs nothing.
 */
export function trialStartedEmail(
  input: SellerContact & {
    customerName: string | null;
    productName: string;
    /** The day the trial ends, in words. */
    trialEndsOn: string;
    /** The plan's price schedule in words: "free until 12 December 2026, then $20.00 / month". */
    price: string;
    usage: string | null;
    /** The first payment's amount ("$20.00 plus usage"); null when the plan then costs nothing. */
    firstPayment: string | null;
    benefitNotes: readonly BenefitNote[];
  },
): RenderedEmail {
  return render(
    `Your free trial of ${input.productName} has started`,
    greet(input.customerName ?? ''),
    [
      `Your free trial of ${input.productName} runs until ${input.trialEndsOn}. Nothing has been charged today. You pay ${input.price}.`,
      ...(input.usage ? [input.usage] : []),
      ...benefitNoteLines(input.benefitNotes),
      ...(input.firstPayment
        ? [
            `Your first payment, ${input.firstPayment}, is on ${input.trialEndsOn}, charged to the card you gave. Cancel before then and you pay nothing.`,
          ]
        : []),
      `To change or cancel your subscription, open your account page (this link signs you in for 24 hours): ${input.portalUrl}`,
    ],
    sellerContact(input),
    input.organizationName,
  );
}

/** To a buyer a few days before their free trial ends: the date and what is charged then. */
export function trialEndingEmail(
  input: SellerContact & {
    customerName: string | null;
    productName: string;
    trialEndsOn: string;
    /** What is charged when the trial ends ("$20.00 plus usage"); null when nothing is. */
    amount: string | null;
    /** The card it is charged to ("visa card ending 4242"), when known. */
    card: string | null;
  },
): RenderedEmail {
  const charge = input.amount
    ? `On ${input.trialEndsOn} we will charge ${input.amount} to ${input.card ?? 'the card you gave'}, and your subscription continues.`
    : `Your subscription continues after ${input.trialEndsOn} at no charge.`;
  return render(
    `Your free trial of ${input.productName} ends on ${input.trialEndsOn}`,
    greet(input.customerName ?? ''),
    [
      `Your free trial of ${input.productName} ends on ${input.trialEndsOn}. ${charge}`,
      `Not for you? Cancel before ${input.trialEndsOn} from your account page and you pay nothing: ${input.portalUrl}`,
    ],
    sellerContact(input),
    input.organizationName,
  );
}

/** The receipt of the first payment after a free trial: the trial is over and the plan goes on. */
export function trialConvertedEmail(input: SubscriptionReceipt): RenderedEmail {
  return render(
    `Your free trial of ${input.productName} has ended: ${input.amount} paid`,
    greet(input.customerName ?? ''),
    [
      `Your free trial of ${input.productName} is over and your subscription continues. ${charged(input)} for ${input.periodStart} to ${input.periodEnd}.`,
      ...receiptLines(input),
      ...(input.price ? [`You pay ${input.price}.`] : []),
      `To change or cancel your subscription, open your account page: ${input.portalUrl}`,
    ],
    sellerContact(input),
    input.organizationName,
  );
}

/** A buyer's code to sign in to a seller's customer portal. */
export function portalSignInCodeEmail(input: {
  sellerName: string;
  code: string;
  minutes: number;
  url: string;
}): RenderedEmail {
  return render(
    `Your ${input.sellerName} sign-in code: ${input.code}`,
    greet(''),
    [
      `Enter ${input.code} to sign in to your ${input.sellerName} account page. The code works for ${input.minutes} minutes.`,
      'If you did not ask for it, you can ignore this email.',
    ],
    { label: 'Open your account page', url: input.url },
    input.sellerName,
  );
}

/** To the address a buyer wants to use instead of theirs: the link proves they read it. */
export function customerEmailUpdateEmail(input: {
  sellerName: string;
  email: string;
  minutes: number;
  url: string;
}): RenderedEmail {
  return render(
    `Confirm your new email address for ${input.sellerName}`,
    greet(''),
    [
      `You asked to use ${input.email} for your ${input.sellerName} account. Open the link to confirm it: it works once, for ${input.minutes} minutes.`,
      'If you did not ask for this, ignore this email: nothing changes.',
    ],
    { label: 'Confirm this email address', url: input.url },
    input.sellerName,
  );
}

/** To the person given a seat: the link claims it and signs them in to the seller's portal. */
export function seatInvitationEmail(input: {
  sellerName: string;
  productName: string;
  inviter: string;
  hours: number;
  url: string;
}): RenderedEmail {
  return render(
    `${input.inviter} gave you a seat of ${input.productName}`,
    greet(''),
    [
      `${input.inviter} gave you a seat of ${input.productName} from ${input.sellerName}. Accept it to get what it includes; the link works once, for ${input.hours} hours.`,
      'If you did not expect this, ignore this email: nothing is charged to you.',
    ],
    { label: 'Accept your seat', url: input.url },
    input.sellerName,
  );
}

/** To the address a buyer left, once the new one is confirmed: a change they did not make shows. */
export function customerEmailChangedEmail(input: {
  sellerName: string;
  newEmail: string;
  url: string;
}): RenderedEmail {
  return render(
    `Your ${input.sellerName} email address was changed`,
    greet(''),
    [
      `Your ${input.sellerName} account now uses ${input.newEmail}; receipts and sign-in codes go there.`,
      `If you did not make this change, write to ${input.sellerName} at once.`,
    ],
    { label: 'Open your account page', url: input.url },
    input.sellerName,
  );
}

/**
 * To a member of the seller's organization, once per paid order (unless they switched it off in
 * their notification settings): what sold, to whom, for how much, and where the order is.
 */
export function newOrderEmail(input: {
  memberName: string;
  organizationName: string;
  /** `orderNumber`, as the buyer's receipt and every page write it. */
  orderNumber: string;
  productName: string;
  /** The total the buyer paid, tax included. */
  amount: string;
  customer: string;
  /** When it was placed, on the organization's clocks. */
  placedAt: string;
  orderUrl: string;
  settingsUrl: string;
}): RenderedEmail {
  return render(
    `New order ${input.orderNumber}: ${input.productName} for ${input.amount}`,
    greet(input.memberName),
    [
      `${input.customer} bought ${input.productName} from ${input.organizationName} for ${input.amount}.`,
      `Order number: ${input.orderNumber}`,
      `Placed on ${input.placedAt}.`,
      `You get this email for each paid order. To stop it, switch off "New order" emails in your notification settings: ${input.settingsUrl}`,
    ],
    { label: 'Open the order', url: input.orderUrl },
  );
}
