import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedEmail = { from: string; to: string[]; raw: string; subject: string; body: string };

/** Undoes quoted-printable soft line breaks and escapes, enough to find links in a message. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startTestSmtpServer() {
  const received: ReceivedEmail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
          body: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async waitFor(predicate: (email: ReceivedEmail) => boolean, timeoutMs = 5000): Promise<ReceivedEmail> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const match = received.find(predicate);
        if (match) return match;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(
        `no matching email within ${timeoutMs} ms; received: ${received.map((email) => email.subject).join(', ')}`,
      );
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
