import { describe, expect, it } from '@jest/globals';
import { Polar as Polar0332 } from '@polar-sh/sdk';
import { Polar } from 'polar-sdk-0481';
import { EMAIL_CHANGE_NEEDS_LINK } from '../../domain/customer-portal/customer.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

// A buyer changes their email address in the portal (customerPortal.customers.requestEmailUpdate,
// checkEmailUpdate and verifyEmailUpdate, @polar-sh/sdk@0.48.1 with its response validation): a
// link goes to the new address, and opening it makes the address theirs.
describe("changing the customer's email address (through @polar-sh/sdk@0.48.1)", () => {
  const env = useTestStack({ withWorker: false });
  const portal = () => new Polar({ serverURL: env.stack.baseUrl }).customerPortal.customers;

  async function signedIn(email = 'ada@example.test') {
    const organization = await createOrganization(env.database.db, { name: 'Acme Tools' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const customer = await polar.customers.create({ email, name: 'Ada' });
    const session = await polar.customerSessions.create({ customerId: customer.id });
    return { organization, token, polar, customer, session, security: { customerSession: session.token } };
  }

  const mailTo = (address: string) =>
    env.database.db.emailMessage.findMany({ where: { toAddress: address }, orderBy: { createdAt: 'desc' } });

  /** The token of the newest link emailed to the address. */
  async function linkTokenFor(address: string) {
    const [message] = await mailTo(address);
    const url = /https?:\/\/\S+verify-email\?token=([A-Za-z0-9_%-]+)/.exec(message?.text ?? '');
    return url ? decodeURIComponent(url[1]!) : undefined;
  }

  const raw = async (method: string, path: string, init: { token?: string; body?: unknown } = {}) => {
    const response = await fetch(
      `${env.stack.baseUrl}/v1/customer-portal/customers/me/email-update/${path}`,
      {
        method,
        headers: {
          'content-type': 'application/json',
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      },
    );
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };

  it('emails a link to the new address; opening it changes the address, tells the old one and the seller', async () => {
    const { organization, polar, customer, security } = await signedIn();
    await portal().requestEmailUpdate(security, { email: 'Ada.New@Example.test' });
    // Nothing changes before the link is opened.
    expect((await polar.customers.get({ id: customer.id })).email).toBe('ada@example.test');
    const token = (await linkTokenFor('ada.new@example.test'))!;
    expect(token).toMatch(/^tollgate_cev_[A-Za-z0-9_-]{32}$/);
    const [message] = await mailTo('ada.new@example.test');
    expect(message!.subject).toBe('Confirm your new email address for Acme Tools');
    expect(message!.text).toContain(`/portal/${organization.slug}/verify-email?token=`);
    expect(message!.text).toContain('30 minutes');

    await portal().checkEmailUpdate({ token });
    const verified = await portal().verifyEmailUpdate({ token });
    expect(verified.token).toMatch(/^tollgate_cst_/);
    const user = await new Polar({
      serverURL: env.stack.baseUrl,
    }).customerPortal.customerSession.getAuthenticatedUser({ customerSession: verified.token });
    expect(user).toMatchObject({ customerId: customer.id, email: 'ada.new@example.test' });
    const changed = await polar.customers.get({ id: customer.id });
    expect(changed).toMatchObject({ email: 'ada.new@example.test', emailVerified: true });

    const [notice] = await mailTo('ada@example.test');
    expect(notice!.subject).toBe('Your Acme Tools email address was changed');
    expect(notice!.text).toContain('ada.new@example.test');

    const events = await env.database.db.outboxEvent.findMany({
      where: { organizationId: organization.id, type: 'customer.updated' },
    });
    expect(events).toHaveLength(1);
    expect((events[0]!.payload as { data: { email: string } }).data.email).toBe('ada.new@example.test');

    // The link works once.
    await expect(portal().checkEmailUpdate({ token })).rejects.toMatchObject({ statusCode: 401 });
    await expect(portal().verifyEmailUpdate({ token })).rejects.toMatchObject({ statusCode: 401 });
  });

  it('a new request replaces the last one: only the newest link works', async () => {
    const { polar, customer, security } = await signedIn();
    await portal().requestEmailUpdate(security, { email: 'first@example.test' });
    const first = (await linkTokenFor('first@example.test'))!;
    await portal().requestEmailUpdate(security, { email: 'second@example.test' });
    const second = (await linkTokenFor('second@example.test'))!;
    await expect(portal().verifyEmailUpdate({ token: first })).rejects.toMatchObject({ statusCode: 401 });
    await portal().verifyEmailUpdate({ token: second });
    expect((await polar.customers.get({ id: customer.id })).email).toBe('second@example.test');
  });

  it('an expired link is refused (401) and changes nothing', async () => {
    const { polar, customer, security } = await signedIn();
    await portal().requestEmailUpdate(security, { email: 'late@example.test' });
    const token = (await linkTokenFor('late@example.test'))!;
    await env.database.db.customerEmailUpdate.updateMany({
      where: { customerId: customer.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const checked = await raw('GET', `check?token=${encodeURIComponent(token)}`);
    expect(checked).toEqual({
      status: 401,
      body: {
        error: 'InvalidCustomerEmailUpdate',
        detail:
          'This link to confirm an email address is invalid, used or expired: ask for a new one on your account page.',
      },
    });
    expect((await raw('POST', 'verify', { body: { token } })).status).toBe(401);
    expect((await polar.customers.get({ id: customer.id })).email).toBe('ada@example.test');
  });

  it('refuses in plain words an address another customer of the organization uses, at request and at the link', async () => {
    const { polar, customer, security, session } = await signedIn();
    await polar.customers.create({ email: 'taken@example.test' });
    const refused = await raw('POST', 'request', {
      token: session.token,
      body: { email: 'Taken@example.test' },
    });
    expect(refused).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'email'],
            msg: 'Another customer of Acme Tools already uses this email address. Use a different one.',
            type: 'value_error',
          },
        ],
      },
    });
    expect(await mailTo('taken@example.test')).toEqual([]);
    // Another organization's customer with the address is no obstacle.
    const elsewhere = await signedIn('elsewhere@example.test');
    await elsewhere.polar.customers.create({ email: 'shared@example.test' });
    await portal().requestEmailUpdate(security, { email: 'shared@example.test' });
    expect(await linkTokenFor('shared@example.test')).toBeDefined();

    // Taken after the request: opening the link is refused on the token, and the link is spent.
    await portal().requestEmailUpdate(security, { email: 'raced@example.test' });
    const token = (await linkTokenFor('raced@example.test'))!;
    await polar.customers.create({ email: 'raced@example.test' });
    const late = await raw('POST', 'verify', { body: { token } });
    expect(late.status).toBe(422);
    expect(late.body!.detail).toEqual([
      {
        loc: ['body', 'token'],
        msg: 'Another customer of Acme Tools already uses this email address. Use a different one.',
        type: 'value_error',
      },
    ]);
    expect((await raw('GET', `check?token=${token}`)).status).toBe(401);
    expect((await polar.customers.get({ id: customer.id })).email).toBe('ada@example.test');
  });

  it('refuses the same address, an invalid one, forged tokens and bodies it does not know (changing nothing)', async () => {
    const { session, customer } = await signedIn();
    const same = await raw('POST', 'request', { token: session.token, body: { email: 'ADA@example.test' } });
    expect(same.status).toBe(422);
    expect(same.body!.detail).toEqual([
      { loc: ['body', 'email'], msg: 'This is already your email address.', type: 'value_error' },
    ]);
    const invalid = await raw('POST', 'request', { token: session.token, body: { email: 'not an address' } });
    expect(invalid.status).toBe(422);
    expect((invalid.body!.detail as { loc: string[] }[])[0]!.loc).toEqual(['body', 'email']);
    expect(
      (await raw('POST', 'request', { token: session.token, body: { email: 'x@example.test', name: 'x' } }))
        .status,
    ).toBe(422);
    for (const token of ['nonsense', `tollgate_cev_${'a'.repeat(32)}`, session.token]) {
      expect((await raw('GET', `check?token=${encodeURIComponent(token)}`)).status).toBe(401);
      expect((await raw('POST', 'verify', { body: { token } })).status).toBe(401);
    }
    expect((await raw('POST', 'verify', { body: {} })).status).toBe(422);
    expect(await env.database.db.customerEmailUpdate.count({ where: { customerId: customer.id } })).toBe(0);
  });

  it('asking needs the customer session: anonymous and organization tokens are refused (401)', async () => {
    const { token, customer } = await signedIn();
    expect((await raw('POST', 'request', { body: { email: 'new@example.test' } })).status).toBe(401);
    expect((await raw('POST', 'request', { token, body: { email: 'new@example.test' } })).status).toBe(401);
    expect(await env.database.db.customerEmailUpdate.count({ where: { customerId: customer.id } })).toBe(0);
  });

  it("a session changes only its own customer's address, never another organization's customer", async () => {
    const ours = await signedIn('ours@example.test');
    const theirs = await signedIn('theirs@example.test');
    await portal().requestEmailUpdate(theirs.security, { email: 'theirs.new@example.test' });
    await portal().verifyEmailUpdate({ token: (await linkTokenFor('theirs.new@example.test'))! });
    expect((await ours.polar.customers.get({ id: ours.customer.id })).email).toBe('ours@example.test');
    expect((await theirs.polar.customers.get({ id: theirs.customer.id })).email).toBe(
      'theirs.new@example.test',
    );
  });

  it('asks are limited per customer and minute (429), so the portal cannot flood an inbox', async () => {
    const { session } = await signedIn();
    const statuses: number[] = [];
    for (let ask = 0; ask < 6; ask += 1) {
      statuses.push(
        (await raw('POST', 'request', { token: session.token, body: { email: `flood-${ask}@example.test` } }))
          .status,
      );
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect(await mailTo('flood-5@example.test')).toEqual([]);
  });

  describe('PATCH customers/me with `email` (@polar-sh/sdk@0.33.2 still sends it)', () => {
    const patchMe = async (token: string, body: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/customer-portal/customers/me`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it('accepts the current address, in any case, with the other fields: nothing to verify', async () => {
      const { polar, customer, security } = await signedIn();
      const updated = await new Polar0332({ serverURL: env.stack.baseUrl }).customerPortal.customers.update(
        security,
        { email: 'Ada@Example.test', name: 'Ada King' },
      );
      expect(updated).toMatchObject({ email: 'ada@example.test', name: 'Ada King' });
      expect(await polar.customers.get({ id: customer.id })).toMatchObject({
        email: 'ada@example.test',
        name: 'Ada King',
      });
    });

    it('refuses a new address at body.email, pointing to the emailed link, and changes nothing', async () => {
      const { organization, polar, customer, session } = await signedIn();
      const before = await env.database.db.outboxEvent.count({ where: { organizationId: organization.id } });
      const refused = await patchMe(session.token, { email: 'someone.else@example.test', name: 'Mallory' });
      expect(refused).toEqual({
        status: 422,
        body: { detail: [{ loc: ['body', 'email'], msg: EMAIL_CHANGE_NEEDS_LINK, type: 'value_error' }] },
      });
      expect(await polar.customers.get({ id: customer.id })).toMatchObject({
        email: 'ada@example.test',
        name: 'Ada',
      });
      expect(await env.database.db.outboxEvent.count({ where: { organizationId: organization.id } })).toBe(
        before,
      );
      expect(await mailTo('someone.else@example.test')).toEqual([]);
      expect(await env.database.db.customerEmailUpdate.count({ where: { customerId: customer.id } })).toBe(0);
      // `null` (what a client sends for "no change") is no address: the rest goes through.
      expect(await patchMe(session.token, { email: null, name: 'Ada L.' })).toMatchObject({
        status: 200,
        body: { email: 'ada@example.test', name: 'Ada L.' },
      });
    });
  });
});
