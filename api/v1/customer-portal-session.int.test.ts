import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

// What a portal token says about itself (customerPortal.customerSession.introspect and
// .getAuthenticatedUser, @polar-sh/sdk@0.48.1 with its response validation), and a portal path
// nothing serves.
describe('the customer session in the portal (through @polar-sh/sdk@0.48.1)', () => {
  const env = useTestStack({ withWorker: false });
  const anonymous = () => new Polar({ serverURL: env.stack.baseUrl });

  async function signedIn(email = 'ada@example.test') {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const customer = await polar.customers.create({ email, name: 'Ada Lovelace' });
    const session = await polar.customerSessions.create({ customerId: customer.id });
    return { organization, token, polar, customer, session, security: { customerSession: session.token } };
  }

  const raw = (token: string | null, path: string) =>
    fetch(`${env.stack.baseUrl}/v1/customer-portal/${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('introspect answers when the session stops working and where it returns to', async () => {
    const { session, security, polar, customer } = await signedIn();
    expect(session.returnUrl).toBeNull();
    expect(await anonymous().customerPortal.customerSession.introspect(security)).toEqual({
      expiresAt: session.expiresAt,
      returnUrl: null,
    });
    const returning = await polar.customerSessions.create({
      customerId: customer.id,
      returnUrl: 'https://app.example.test/account',
    });
    expect(returning.returnUrl).toBe('https://app.example.test/account');
    expect(
      await anonymous().customerPortal.customerSession.introspect({ customerSession: returning.token }),
    ).toEqual({ expiresAt: returning.expiresAt, returnUrl: 'https://app.example.test/account' });
  });

  it('customerSessions.create refuses a return_url that is no web address and members (422)', async () => {
    const { token, customer } = await signedIn();
    const create = (body: unknown) =>
      fetch(`${env.stack.baseUrl}/v1/customer-sessions/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const notUrl = await create({ customer_id: customer.id, return_url: 'javascript:alert(1)' });
    expect(notUrl.status).toBe(422);
    expect(JSON.stringify(await notUrl.json())).toContain('return_url');
    const member = await create({ customer_id: customer.id, member_id: customer.id });
    expect(member.status).toBe(422);
    expect(JSON.stringify(await member.json())).toContain('Members is not available yet.');
    expect(await env.database.db.customerSession.count({ where: { customerId: customer.id } })).toBe(1);
  });

  it("a checkout confirmation's token expires an hour after the payment", async () => {
    const { customer, polar } = await signedIn();
    const product = await polar.products.create({
      name: 'Manual',
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id], customerId: customer.id });
    // As the confirmation leaves a paid checkout: its token stored hashed, 10 minutes ago.
    const paidAt = new Date(Date.now() - 10 * 60 * 1000);
    const token = `tollgate_cst_${randomBytes(24).toString('base64url')}`;
    await env.database.db.checkout.update({
      where: { id: checkout.id },
      data: {
        status: 'succeeded',
        customerSessionTokenHash: createHash('sha256').update(token).digest('hex'),
        modifiedAt: paidAt,
      },
    });
    const introspection = await anonymous().customerPortal.customerSession.introspect({
      customerSession: token,
    });
    expect(introspection).toEqual({
      expiresAt: new Date(paidAt.getTime() + 60 * 60 * 1000),
      returnUrl: null,
    });
  });

  it('getAuthenticatedUser names the signed-in customer', async () => {
    const { customer, security } = await signedIn('grace@example.test');
    expect(await anonymous().customerPortal.customerSession.getAuthenticatedUser(security)).toEqual({
      type: 'customer',
      name: 'Ada Lovelace',
      email: 'grace@example.test',
      customerId: customer.id,
      memberId: null,
      role: null,
    });
  });

  it('refuses anonymous callers, organization tokens and ended sessions (401)', async () => {
    const { token, session } = await signedIn();
    for (const path of ['customer-session/introspect', 'customer-session/user']) {
      expect((await raw(null, path)).status).toBe(401);
      expect((await raw(token, path)).status).toBe(401);
    }
    await fetch(`${env.stack.baseUrl}/v1/customer-portal/customer-session`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect((await raw(session.token, 'customer-session/introspect')).status).toBe(401);
    expect((await raw(session.token, 'customer-session/user')).status).toBe(401);
  });

  it('a session sees only itself: another customer of another organization gets their own answer', async () => {
    const ours = await signedIn('ours@example.test');
    const theirs = await signedIn('theirs@example.test');
    const user = await anonymous().customerPortal.customerSession.getAuthenticatedUser(theirs.security);
    expect(user.customerId).toBe(theirs.customer.id);
    expect(user.customerId).not.toBe(ours.customer.id);
  });

  it('a portal path no operation serves is a 404 to a signed-in customer, still a 401 to anyone else', async () => {
    const { session, token } = await signedIn();
    for (const path of ['nothing-here', 'customers/me/nothing', 'customer-session/nothing']) {
      const answer = await raw(session.token, path);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ error: 'ResourceNotFound' });
      expect((await raw(null, path)).status).toBe(401);
      expect((await raw(token, path)).status).toBe(404);
    }
    // A method no operation serves at a served path stays a 405.
    const post = await fetch(`${env.stack.baseUrl}/v1/customer-portal/customer-session/user`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(post.status).toBe(405);
  });
});
