// The demo's HTTP server: Better Auth's handler at /api/auth (the plugin's endpoints, the webhook
// receiver among them) and a few form pages that call the same endpoints on the server.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { APIError } from 'better-auth/api';
import { fromNodeHeaders, toNodeHandler } from 'better-auth/node';
import { createDemoAuth, createWebhookInbox, demoConfigSchema, type DemoConfig } from './auth.js';
import { accountPage, signedOutPage, successPage, type AccountView } from './pages.js';

const MAX_FORM_BYTES = 16_384;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new Error('The form is too large.');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const sendHtml = (res: ServerResponse, status: number, page: string) =>
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page);

const redirect = (res: ServerResponse, location: string) => res.writeHead(303, { location }).end();

const messageOf = (error: unknown) =>
  error instanceof APIError
    ? (error.body?.message ?? error.message)
    : error instanceof Error
      ? error.message
      : String(error);

/** Answers `response` (from `asResponse: true`) as a redirect, keeping the cookies Better Auth set. */
function redirectWithCookies(res: ServerResponse, response: Response, location: string) {
  res.setHeader('set-cookie', response.headers.getSetCookie());
  redirect(res, location);
}

function createDemoServer(config: DemoConfig) {
  const inbox = createWebhookInbox();
  const auth = createDemoAuth(config, inbox);
  const authHandler = toNodeHandler(auth);
  const origin = new URL(config.BETTER_AUTH_URL ?? `http://localhost:${config.PORT}`).origin;

  async function account(req: IncomingMessage, extra: Pick<AccountView, 'notice' | 'error'> = {}) {
    const headers = fromNodeHeaders(req.headers);
    const session = await auth.api.getSession({ headers });
    if (!session) return null;
    // The portal and usage plugins' own endpoints, each a Tollgate call with a customer session.
    const [state, orders, subscriptions, meters] = await Promise.all([
      auth.api.state({ headers }),
      auth.api.orders({ headers, query: {} }),
      auth.api.subscriptions({ headers, query: {} }),
      auth.api.meters({ headers, query: {} }),
    ]);
    return accountPage({
      user: session.user,
      productSlug: config.POLAR_PRODUCT_SLUG,
      usageEventName: config.USAGE_EVENT_NAME,
      state,
      orders: orders.result.items,
      subscriptions: subscriptions.result.items,
      meters: meters.result.items,
      webhooks: inbox.events(),
      ...extra,
    });
  }

  const actions: Record<
    string,
    (req: IncomingMessage, res: ServerResponse, form: URLSearchParams) => Promise<void>
  > = {
    '/sign-up': async (_req, res, form) => {
      const response = await auth.api.signUpEmail({
        body: {
          name: form.get('name') ?? '',
          email: form.get('email') ?? '',
          password: form.get('password') ?? '',
        },
        asResponse: true,
      });
      if (!response.ok) {
        const { message } = (await response.json()) as { message?: string };
        sendHtml(res, response.status, signedOutPage({ error: message ?? 'Sign-up failed.' }));
        return;
      }
      redirectWithCookies(res, response, '/');
    },
    '/sign-in': async (_req, res, form) => {
      const response = await auth.api.signInEmail({
        body: { email: form.get('email') ?? '', password: form.get('password') ?? '' },
        asResponse: true,
      });
      if (!response.ok) {
        const { message } = (await response.json()) as { message?: string };
        sendHtml(res, response.status, signedOutPage({ error: message ?? 'Sign-in failed.' }));
        return;
      }
      redirectWithCookies(res, response, '/');
    },
    '/sign-out': async (req, res) => {
      const response = await auth.api.signOut({ headers: fromNodeHeaders(req.headers), asResponse: true });
      redirectWithCookies(res, response, '/');
    },
    '/checkout': async (req, res, form) => {
      const { url } = await auth.api.checkout({
        headers: fromNodeHeaders(req.headers),
        body: { slug: form.get('slug') ?? '', redirect: false },
      });
      redirect(res, url);
    },
    '/portal': async (req, res) => {
      const { url } = await auth.api.portal({
        headers: fromNodeHeaders(req.headers),
        body: { redirect: false },
      });
      redirect(res, url);
    },
    '/usage': async (req, res, form) => {
      const { inserted } = await auth.api.ingestion({
        headers: fromNodeHeaders(req.headers),
        body: { event: form.get('event') ?? config.USAGE_EVENT_NAME, metadata: { source: 'demo' } },
      });
      sendHtml(
        res,
        200,
        (await account(req, { notice: `Recorded ${inserted} event.` })) ?? signedOutPage({}),
      );
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.startsWith('/api/auth/')) return authHandler(req, res);
    if (req.method === 'GET' && url.pathname === '/health') return res.writeHead(204).end();
    if (req.method === 'GET' && url.pathname === '/') {
      return sendHtml(res, 200, (await account(req)) ?? signedOutPage({}));
    }
    if (req.method === 'GET' && url.pathname === '/success') {
      return sendHtml(res, 200, successPage(url.searchParams.get('checkout_id') ?? ''));
    }
    const action = req.method === 'POST' ? actions[url.pathname] : undefined;
    if (!action) return sendHtml(res, 404, signedOutPage({ error: 'Not found.' }));
    // Forms post from the demo's own pages only; Better Auth checks the same for its own routes.
    if (req.headers.origin !== origin)
      return sendHtml(res, 403, signedOutPage({ error: 'Cross-site form refused.' }));
    const form = await readForm(req);
    try {
      await action(req, res, form);
    } catch (error) {
      const page = await account(req, { error: messageOf(error) }).catch(() => null);
      sendHtml(res, 400, page ?? signedOutPage({ error: messageOf(error) }));
    }
  }

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) sendHtml(res, 500, signedOutPage({ error: 'Something went wrong.' }));
      else res.end();
    });
  });
}

const config = demoConfigSchema.parse(process.env);
createDemoServer(config).listen(config.PORT, () => {
  console.log(`Better Auth × Tollgate demo on http://localhost:${config.PORT}`);
});
