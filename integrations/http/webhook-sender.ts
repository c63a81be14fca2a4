// Webhook deliveries over HTTP: one POST per attempt, a bounded wait, and only the start of the
// endpoint's answer kept (for the delivery log).
import { DELIVERY_TIMEOUT_MS, excerpt, RESPONSE_EXCERPT_CHARS } from '../../domain/webhooks/rules.js';
import type { HttpAnswer, WebhookSender } from '../../domain/webhooks/service.js';

async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < RESPONSE_EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    // The rest of a large answer is never downloaded.
    await reader.cancel().catch(() => undefined);
  }
  return excerpt(text);
}

async function postWebhook(url: string, headers: Record<string, string>, body: string): Promise<HttpAnswer> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const text = await readExcerpt(response).catch(() => '');
    return { httpCode: response.status, response: text, error: null };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    const message =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
        : `${error instanceof Error ? error.message : String(error)}${cause}`;
    return { httpCode: null, response: null, error: excerpt(message, 500) };
  }
}

export const httpWebhookSender: WebhookSender = { post: postWebhook };
