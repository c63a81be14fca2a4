import { describe, expect, it } from '@jest/globals';
import { createTestAuthClient, signUpUser } from '../../test/auth-client.js';
import { useTestStack } from '../../test/stack.js';
import { totpCode } from '../../test/totp.js';

const password = 'correct horse battery staple';
const THIRTY_DAYS_SECONDS = 2_592_000;

describe('two-factor sign-in (spec §4, §7, §9)', () => {
  const env = useTestStack({ withWorker: false });

  async function userWithTwoFactor() {
    const user = await signUpUser(env.stack.baseUrl);
    const enabled = await user.client.twoFactor.enable({ password });
    const { totpURI, backupCodes } = enabled.data as { totpURI: string; backupCodes: string[] };
    expect((await user.client.twoFactor.verifyTotp({ code: totpCode(totpURI) })).error).toBeNull();
    return { user, totpURI, backupCodes };
  }

  /** First step of a sign-in that needs a second factor: the client holding the two-factor cookie. */
  async function startSignIn(email: string, client = createTestAuthClient(env.stack.baseUrl)) {
    const first = await client.client.signIn.email({ email, password });
    return { client, first: first.data as Record<string, unknown> | null };
  }

  it('verification answers token and user, and a trusted device skips the second factor for 30 days', async () => {
    const { user, totpURI } = await userWithTwoFactor();
    const { client, first } = await startSignIn(user.credentials.email);
    expect(first).toMatchObject({ twoFactorRedirect: true });

    const response = await fetch(`${env.stack.baseUrl}/api/auth/two-factor/verify-totp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: env.stack.baseUrl,
        cookie: client.cookieHeader(),
      },
      body: JSON.stringify({ code: totpCode(totpURI), trustDevice: true }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      token: expect.any(String),
      user: { id: user.user.id, email: user.credentials.email, twoFactorEnabled: true },
    });
    const trustCookie = response.headers.getSetCookie().find((cookie) => cookie.includes('trust_device='));
    expect(trustCookie).toMatch(new RegExp(`Max-Age=${THIRTY_DAYS_SECONDS}`, 'i'));

    // The same browser (carrying the trust cookie) signs in again with the password alone.
    const trusted = createTestAuthClient(env.stack.baseUrl);
    const [pair = ''] = trustCookie!.split(';');
    const separator = pair.indexOf('=');
    trusted.cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    const again = await startSignIn(user.credentials.email, trusted);
    expect(again.first).toMatchObject({ token: expect.any(String), user: { id: user.user.id } });
  });

  it('a backup code signs in once', async () => {
    const { user, backupCodes } = await userWithTwoFactor();
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);
    const { client } = await startSignIn(user.credentials.email);
    const verified = await client.client.twoFactor.verifyBackupCode({ code: backupCodes[0]! });
    expect(verified.data).toMatchObject({ token: expect.any(String), user: { id: user.user.id } });

    const { client: second } = await startSignIn(user.credentials.email);
    expect((await second.client.twoFactor.verifyBackupCode({ code: backupCodes[0]! })).error).toMatchObject({
      status: 401,
    });
  });

  it('disabling two-factor needs the password, then sign-in needs only the password', async () => {
    const { user } = await userWithTwoFactor();
    expect((await user.client.twoFactor.disable({ password: 'wrong password' })).error).toMatchObject({
      status: 400,
      message: 'Invalid password',
    });
    expect((await user.client.twoFactor.disable({ password })).error).toBeNull();
    const { first } = await startSignIn(user.credentials.email);
    expect(first).toMatchObject({ token: expect.any(String) });
  });
});
