// What the domains ask of email delivery; integrations/smtp/ implements it (SMTP, or the dev
// mailbox table when no SMTP server is configured).

export type Email = { to: string; subject: string; text: string; html?: string };

export type Mailer = {
  transport: 'smtp' | 'mailbox';
  /**
   * Sends once per `idempotencyKey`: a retry (an activity, a double click) after a successful send
   * is a no-op that answers 'duplicate'.
   */
  send(email: Email & { idempotencyKey: string }): Promise<'sent' | 'duplicate'>;
};
