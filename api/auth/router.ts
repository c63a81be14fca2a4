import { Router } from 'express';
import { z } from 'zod';
import { parseQuery } from '../http/validation.js';

const errorPageQuery = z.object({ error: z.string().max(200).optional() });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The two generic pages of the authentication service (spec §2). The rest of /api/auth is
 * Better Auth's handler, mounted in front of this router by the identity work.
 */
export function createAuthPagesRouter(): Router {
  const router = Router();
  router.get('/ok', (_req, res) => {
    res.json({ ok: true });
  });
  router.get('/error', (req, res) => {
    const { error } = parseQuery(errorPageQuery, req);
    const code = escapeHtml(error ?? 'unknown_error');
    res
      .status(200)
      .type('html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head>` +
          `<body><main><h1>Sign-in error</h1><p>Something went wrong while signing you in.</p>` +
          `<p>Error code: <code id="error-code">${code}</code></p><p><a href="/">Back to Tollgate</a></p></main></body></html>`,
      );
  });
  return router;
}
