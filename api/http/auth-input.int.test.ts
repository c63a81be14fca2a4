// Hardening issue item 3, Better Auth's side: NUL in `/update-user`'s and `/organization/create`'s
// names reached PostgreSQL and answered an empty 500. Refusals keep Better Auth's own shape.
import { describe, expect, it } from '@jest/globals';
import { postAuth, signUpUser } from '../../test/auth-client.js';
import { useTestStack } from '../../test/stack.js';

describe('text rule in front of Better Auth (/api/auth)', () => {
  const env = useTestStack({ withWorker: false });

  const post = (path: string, body: unknown, cookie?: string) =>
    postAuth(env.stack.baseUrl, path, body, cookie);

  it('refuses NUL in a user name at update-user, as Better Auth refuses invalid input', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    expect(await post('/update-user', { name: 'Ada\u0000' }, user.cookieHeader())).toEqual({
      status: 400,
      body: { code: 'VALIDATION_ERROR', message: '[body.name] Must not contain control characters.' },
    });
    const row = await env.database.db.user.findUniqueOrThrow({ where: { id: user.user.id } });
    expect(row.name).toBe(user.credentials.name);
    expect(await post('/update-user', { name: 'Ada Lovelace' }, user.cookieHeader())).toMatchObject({
      status: 200,
    });
  });

  it('refuses NUL, unpaired surrogates and over-long names at organization/create', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    const cases: [string, string][] = [
      ['Shop\u0000', '[body.name] Must not contain control characters.'],
      ['sur\ud800rogate', '[body.name] Must be valid Unicode text (no unpaired surrogate characters).'],
      ['x'.repeat(2800), '[body.name] Must be at most 256 characters.'],
    ];
    for (const [name, message] of cases) {
      const slug = `hostile-${Math.random().toString(36).slice(2, 10)}`;
      expect(await post('/organization/create', { name, slug }, user.cookieHeader())).toEqual({
        status: 400,
        body: { code: 'VALIDATION_ERROR', message },
      });
      expect(await env.database.db.organization.count({ where: { slug } })).toBe(0);
    }
    expect(
      await post('/organization/create', { name: 'Shop', slug: 'a\u0000b' }, user.cookieHeader()),
    ).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('refuses NUL anywhere Better Auth would store or look it up: nested fields, queries, sign-up', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    const created = await post(
      '/organization/create',
      { name: 'Fine Shop', slug: `fine-${Math.random().toString(36).slice(2, 10)}` },
      user.cookieHeader(),
    );
    expect(created.status).toBe(200);
    const organizationId = (created.body as { id: string }).id;
    expect(
      await post('/organization/update', { organizationId, data: { name: 'a\u0000b' } }, user.cookieHeader()),
    ).toMatchObject({
      status: 400,
      body: { message: '[body.data.name] Must not contain control characters.' },
    });
    expect(
      await post(
        '/organization/update',
        { organizationId, data: { metadata: { note: 'a\u0000b' } } },
        user.cookieHeader(),
      ),
    ).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(
      await post('/sign-up/email', {
        name: 'sur\ud800rogate',
        email: `surrogate-${Date.now()}@example.test`,
        password: 'correct horse battery staple',
      }),
    ).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });

    const lookup = await fetch(
      `${env.stack.baseUrl}/api/auth/organization/get-full-organization?organizationSlug=a%00b`,
      { headers: { cookie: user.cookieHeader() } },
    );
    expect(lookup.status).toBe(400);
    expect(await lookup.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: '[query.organizationSlug] Must not contain control characters.',
    });
  });
});
