import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { signUpUser } from '../../test/auth-client.js';
import { useTestStack } from '../../test/stack.js';

type Jwk = { kid: string; kty: string; crv?: string; x?: string; alg?: string };

describe('jwt plugin: the key pair record (spec §3)', () => {
  const env = useTestStack({ withWorker: false });

  it('issues a session JWT that verifies with a key published at /jwks, whose private half is stored encrypted', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    const tokenResponse = await fetch(`${env.stack.baseUrl}/api/auth/token`, {
      headers: { cookie: user.cookieHeader() },
    });
    expect(tokenResponse.status).toBe(200);
    const { token } = (await tokenResponse.json()) as { token: string };
    const [header = '', payload = '', signature = ''] = token.split('.');
    const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as {
      kid: string;
      alg: string;
    };
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string; exp: number };
    expect(claims.sub).toBe(user.user.id);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());

    const { keys } = (await (await fetch(`${env.stack.baseUrl}/api/auth/jwks`)).json()) as { keys: Jwk[] };
    const jwk = keys.find((key) => key.kid === kid);
    expect(jwk).toBeDefined();
    expect(alg).toBe('EdDSA');
    const publicKey = createPublicKey({ key: jwk as never, format: 'jwk' });
    expect(
      verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(true);

    const record = await env.database.db.jwks.findUniqueOrThrow({ where: { id: kid } });
    expect(record.publicKey).toContain(jwk!.x!);
    expect(record.privateKey).not.toContain('PRIVATE KEY');
    expect(record.createdAt).toBeInstanceOf(Date);
  });

  it('refuses a token to anonymous callers', async () => {
    expect((await fetch(`${env.stack.baseUrl}/api/auth/token`)).status).toBe(401);
  });
});
