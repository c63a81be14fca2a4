import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { signUpUser } from '../../test/auth-client.js';
import { addMember } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

type SignedIn = Awaited<ReturnType<typeof signUpUser>>;

const slug = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Spec §7 organization calls through Better Auth's own client, with the §4 transitions and §8 errors. */
describe('/api/auth/organization/* (spec §7)', () => {
  const env = useTestStack({ withWorker: false });
  const signUp = () => signUpUser(env.stack.baseUrl);

  async function organizationOf(owner: SignedIn, options: { keepCurrentActiveOrganization?: boolean } = {}) {
    const created = await owner.client.organization.create({ name: 'Acme', slug: slug('acme'), ...options });
    if (!created.data) throw new Error(JSON.stringify(created.error));
    return created.data;
  }

  async function activeOrganizationId(user: SignedIn) {
    const session = await user.client.getSession();
    return session.data?.session.activeOrganizationId ?? null;
  }

  describe('create, check-slug, update, list, delete', () => {
    it('creates with logo, metadata and the seller profile, answering the organization with its members', async () => {
      const owner = await signUp();
      const created = await owner.client.organization.create({
        name: 'Acme Studio',
        slug: slug('studio'),
        logo: 'https://cdn.example.test/acme.png',
        metadata: { plan: 'growth' },
        email: 'billing@acme.test',
        website: 'https://acme.test',
        socials: [{ platform: 'github', url: 'https://github.com/acme' }],
        prorationBehavior: 'invoice',
      });
      expect(created.error).toBeNull();
      const organization = created.data!;
      expect(organization).toMatchObject({
        name: 'Acme Studio',
        logo: 'https://cdn.example.test/acme.png',
        metadata: { plan: 'growth' },
        email: 'billing@acme.test',
        website: 'https://acme.test',
        socials: [{ platform: 'github', url: 'https://github.com/acme' }],
        prorationBehavior: 'invoice',
        allowCustomerUpdates: true,
        issueFundingEnabled: false,
      });
      expect(organization.members).toEqual([
        expect.objectContaining({ userId: owner.user.id, role: 'owner', organizationId: organization.id }),
      ]);

      // One record, two views: the payments API reads the same profile in snake_case.
      const v1 = await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
        headers: { cookie: owner.cookieHeader() },
      });
      expect(await v1.json()).toMatchObject({
        avatar_url: 'https://cdn.example.test/acme.png',
        email: 'billing@acme.test',
        website: 'https://acme.test',
        socials: [{ platform: 'github', url: 'https://github.com/acme' }],
        subscription_settings: { proration_behavior: 'invoice', allow_customer_updates: true },
      });
    });

    it('refuses a malformed seller profile with 400 naming the field, and creates nothing', async () => {
      const owner = await signUp();
      const taken = slug('bad');
      for (const [body, message] of [
        [{ website: 'not a url' }, '[body.website] Invalid URL'],
        [{ socials: [{ platform: 'myspace', url: 'https://myspace.test' }] }, '[body.socials.0.platform]'],
        [{ prorationBehavior: 'sometimes' }, '[body.prorationBehavior]'],
      ] as const) {
        const result = await owner.client.organization.create({ name: 'Bad', slug: taken, ...body } as never);
        expect(result.error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
        expect(result.error?.message).toContain(message);
      }
      expect(await env.database.db.organization.count({ where: { slug: taken } })).toBe(0);
    });

    it('keeps the active organization with keepCurrentActiveOrganization, and switches otherwise', async () => {
      const owner = await signUp();
      const first = await organizationOf(owner);
      await organizationOf(owner, { keepCurrentActiveOrganization: true });
      expect(await activeOrganizationId(owner)).toBe(first.id);
      const third = await organizationOf(owner);
      expect(await activeOrganizationId(owner)).toBe(third.id);
    });

    it('creates for another user (userId) only for platform admins; others naming someone else are refused', async () => {
      const admin = await signUp();
      await env.database.db.user.update({ where: { id: admin.user.id }, data: { role: 'admin' } });
      const seller = await signUp();
      const before = await organizationOf(admin);

      const forSeller = await admin.client.organization.create({
        name: 'On behalf',
        slug: slug('behalf'),
        userId: seller.user.id,
      });
      expect(forSeller.error).toBeNull();
      expect(forSeller.data?.members).toEqual([
        expect.objectContaining({ userId: seller.user.id, role: 'owner' }),
      ]);
      expect(await activeOrganizationId(admin)).toBe(before.id);
      expect(await env.database.db.member.count({ where: { userId: admin.user.id } })).toBe(1);

      const intruder = await signUp();
      const refusedSlug = slug('refused');
      const refused = await intruder.client.organization.create({
        name: 'Not yours',
        slug: refusedSlug,
        userId: seller.user.id,
      });
      expect(refused.error).toMatchObject({
        status: 403,
        message: 'You are not allowed to create a new organization',
      });
      expect(await env.database.db.organization.count({ where: { slug: refusedSlug } })).toBe(0);

      // Naming yourself is the ordinary case.
      const own = await intruder.client.organization.create({
        name: 'Mine',
        slug: slug('mine'),
        userId: intruder.user.id,
      });
      expect(own.data?.members).toEqual([expect.objectContaining({ userId: intruder.user.id })]);

      // A server call (no request) is the other way to create for someone.
      const server = await env.stack.auth.api.createOrganization({
        body: { name: 'Server', slug: slug('server'), userId: seller.user.id },
      });
      expect(server?.members).toEqual([expect.objectContaining({ userId: seller.user.id, role: 'owner' })]);
    });

    it('check-slug answers status true for a free slug', async () => {
      const user = await signUp();
      expect((await user.client.organization.checkSlug({ slug: slug('free') })).data).toEqual({
        status: true,
      });
    });

    it('updates name, slug, metadata and seller fields, recording organization.updated in the same write', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const newSlug = slug('renamed');
      const updated = await owner.client.organization.update({
        organizationId: organization.id,
        data: {
          name: 'Renamed',
          slug: newSlug,
          metadata: { tier: 'gold' },
          website: 'https://renamed.test',
          allowMultipleSubscriptions: true,
        },
      });
      expect(updated.error).toBeNull();
      expect(updated.data).toMatchObject({
        id: organization.id,
        name: 'Renamed',
        slug: newSlug,
        website: 'https://renamed.test',
        allowMultipleSubscriptions: true,
      });

      const events = await env.database.db.outboxEvent.findMany({
        where: { organizationId: organization.id, type: 'organization.updated' },
      });
      expect(events).toHaveLength(1);
      expect(events[0]!.payload).toMatchObject({
        type: 'organization.updated',
        data: {
          id: organization.id,
          name: 'Renamed',
          slug: newSlug,
          website: 'https://renamed.test',
          subscription_settings: { allow_multiple_subscriptions: true },
        },
      });

      // Without organizationId the active organization is updated.
      const active = await owner.client.organization.update({ data: { name: 'Active one' } });
      expect(active.data).toMatchObject({ id: organization.id, name: 'Active one' });
    });

    it('refuses updates from members, strangers and anonymous callers with the catalogue messages', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const member = await signUp();
      await addMember(env.database.db, organization.id, member.user.id, 'member');
      const stranger = await signUp();
      const attempt = (user: SignedIn) =>
        user.client.organization.update({ organizationId: organization.id, data: { name: 'Hijacked' } });

      expect((await attempt(member)).error).toMatchObject({
        status: 403,
        message: 'You are not allowed to update this organization',
      });
      expect((await attempt(stranger)).error).toMatchObject({
        status: 400,
        message: 'User is not a member of the organization',
      });
      const anonymous = await fetch(`${env.stack.baseUrl}/api/auth/organization/update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: env.stack.baseUrl },
        body: JSON.stringify({ organizationId: organization.id, data: { name: 'Hijacked' } }),
      });
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ message: 'User not found' });
      const bad = await owner.client.organization.update({
        organizationId: organization.id,
        data: { email: 'not-an-email' },
      });
      expect(bad.error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });

      const row = await env.database.db.organization.findUniqueOrThrow({ where: { id: organization.id } });
      expect(row).toMatchObject({ name: 'Acme', email: null });
      expect(await env.database.db.outboxEvent.count({ where: { organizationId: organization.id } })).toBe(0);
    });

    it("lists only the user's organizations", async () => {
      const owner = await signUp();
      const mine = [await organizationOf(owner), await organizationOf(owner)];
      await organizationOf(await signUp());
      const listed = await owner.client.organization.list();
      expect(listed.data?.map((organization) => organization.id).sort()).toEqual(
        mine.map((organization) => organization.id).sort(),
      );
    });

    it('deletes for the owner only, answering the deleted organization and clearing it as active', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const admin = await signUp();
      await addMember(env.database.db, organization.id, admin.user.id, 'admin');

      expect(
        (await admin.client.organization.delete({ organizationId: organization.id })).error,
      ).toMatchObject({ status: 403, message: 'You are not allowed to delete this organization' });

      const deleted = await owner.client.organization.delete({ organizationId: organization.id });
      expect(deleted.data).toMatchObject({ id: organization.id, slug: organization.slug });
      expect(await activeOrganizationId(owner)).toBeNull();
      expect(await env.database.db.organization.count({ where: { id: organization.id } })).toBe(0);

      expect(
        (
          await owner.client.organization.getFullOrganization({
            query: { organizationSlug: organization.slug },
          })
        ).error,
      ).toMatchObject({ status: 400, message: 'Organization not found' });
    });
  });

  describe('members', () => {
    it('get-active-member answers the member, or No active organization (400) without one', async () => {
      const user = await signUp();
      expect((await user.client.organization.getActiveMember()).error).toMatchObject({
        status: 400,
        message: 'No active organization',
      });
      const organization = await organizationOf(user);
      expect((await user.client.organization.getActiveMember()).data).toMatchObject({
        organizationId: organization.id,
        userId: user.user.id,
        role: 'owner',
      });
    });

    it('removes a member by id or by email, and answers Member not found for others', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const byId = await signUp();
      const byEmail = await signUp();
      const memberById = await addMember(env.database.db, organization.id, byId.user.id, 'member');
      await addMember(env.database.db, organization.id, byEmail.user.id, 'member');

      const removedById = await owner.client.organization.removeMember({
        memberIdOrEmail: memberById.id,
        organizationId: organization.id,
      });
      expect(removedById.data?.member).toMatchObject({ id: memberById.id, userId: byId.user.id });
      const removedByEmail = await owner.client.organization.removeMember({
        memberIdOrEmail: byEmail.credentials.email,
      });
      expect(removedByEmail.data?.member).toMatchObject({ userId: byEmail.user.id });
      expect(await env.database.db.member.count({ where: { organizationId: organization.id } })).toBe(1);

      expect(
        (await owner.client.organization.removeMember({ memberIdOrEmail: 'nobody@example.test' })).error,
      ).toMatchObject({ status: 400, message: 'Member not found' });
    });

    it('keeps the last owner: cannot be removed and cannot leave', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const admin = await signUp();
      await addMember(env.database.db, organization.id, admin.user.id, 'admin');
      const ownerMember = await env.database.db.member.findFirstOrThrow({
        where: { organizationId: organization.id, userId: owner.user.id },
      });
      const onlyOwner = { status: 400, message: 'You cannot leave the organization as the only owner' };
      expect(
        (
          await admin.client.organization.removeMember({
            memberIdOrEmail: ownerMember.id,
            organizationId: organization.id,
          })
        ).error,
      ).toMatchObject(onlyOwner);
      expect(
        (await owner.client.organization.leave({ organizationId: organization.id })).error,
      ).toMatchObject(onlyOwner);
    });

    it('leave answers the member and clears the active organization', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const member = await signUp();
      await addMember(env.database.db, organization.id, member.user.id, 'member');
      await member.client.organization.setActive({ organizationId: organization.id });
      expect(await activeOrganizationId(member)).toBe(organization.id);

      const left = await member.client.organization.leave({ organizationId: organization.id });
      expect(left.data).toMatchObject({ userId: member.user.id, organizationId: organization.id });
      expect(await activeOrganizationId(member)).toBeNull();
    });

    it('refuses an unknown role with Role not found', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const member = await signUp();
      const row = await addMember(env.database.db, organization.id, member.user.id, 'member');
      const result = await owner.client.organization.updateMemberRole({
        memberId: row.id,
        role: 'superhero' as never,
      });
      expect(result.error).toMatchObject({ status: 400, message: 'Role not found' });
    });
  });

  describe('invitations', () => {
    async function invite(owner: SignedIn, organizationId: string, email: string, role = 'member') {
      const invited = await owner.client.organization.inviteMember({
        email,
        role: role as 'member',
        organizationId,
      });
      if (!invited.data) throw new Error(JSON.stringify(invited.error));
      return invited.data;
    }

    it('get-invitation adds organizationName, organizationSlug and inviterEmail for the recipient', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const invitee = await signUp();
      const invitation = await invite(owner, organization.id, invitee.credentials.email);
      const fetched = await invitee.client.organization.getInvitation({ query: { id: invitation.id } });
      expect(fetched.data).toMatchObject({
        id: invitation.id,
        status: 'pending',
        organizationName: 'Acme',
        organizationSlug: organization.slug,
        inviterEmail: owner.credentials.email,
      });

      const stranger = await signUp();
      expect(
        (await stranger.client.organization.getInvitation({ query: { id: invitation.id } })).error,
      ).toMatchObject({ status: 403, message: 'You are not the recipient of the invitation' });
      const anonymous = await fetch(
        `${env.stack.baseUrl}/api/auth/organization/get-invitation?id=${invitation.id}`,
      );
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ message: 'Not authenticated' });
    });

    it('accept answers the invitation and the member; reject answers member null; cancel answers the invitation', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const accepting = await signUp();
      const rejecting = await signUp();
      const canceled = await signUp();

      const toAccept = await invite(owner, organization.id, accepting.credentials.email, 'admin');
      const accepted = await accepting.client.organization.acceptInvitation({ invitationId: toAccept.id });
      expect(accepted.data?.invitation).toMatchObject({ id: toAccept.id, status: 'accepted' });
      expect(accepted.data?.member).toMatchObject({ userId: accepting.user.id, role: 'admin' });

      const toReject = await invite(owner, organization.id, rejecting.credentials.email);
      const rejected = await rejecting.client.organization.rejectInvitation({ invitationId: toReject.id });
      expect(rejected.data).toMatchObject({
        invitation: { id: toReject.id, status: 'rejected' },
        member: null,
      });

      const toCancel = await invite(owner, organization.id, canceled.credentials.email);
      const cancel = await owner.client.organization.cancelInvitation({ invitationId: toCancel.id });
      expect(cancel.data).toMatchObject({ id: toCancel.id, status: 'canceled' });
      expect(
        (await canceled.client.organization.acceptInvitation({ invitationId: toCancel.id })).error,
      ).toMatchObject({ status: 400, message: 'Invitation not found' });
    });

    it('refuses members who may not invite or cancel, and invitations whose inviter left', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const member = await signUp();
      await addMember(env.database.db, organization.id, member.user.id, 'member');
      expect(
        (
          await member.client.organization.inviteMember({
            email: `${randomUUID()}@example.test`,
            role: 'member',
            organizationId: organization.id,
          })
        ).error,
      ).toMatchObject({ status: 403, message: 'You are not allowed to invite users to this organization' });

      const inviteeA = await signUp();
      const pending = await invite(owner, organization.id, inviteeA.credentials.email);
      expect(
        (await member.client.organization.cancelInvitation({ invitationId: pending.id })).error,
      ).toMatchObject({ status: 403, message: 'You are not allowed to cancel this invitation' });

      // An admin invites, then leaves: their invitation can no longer be fetched.
      const admin = await signUp();
      await addMember(env.database.db, organization.id, admin.user.id, 'admin');
      const inviteeB = await signUp();
      const fromAdmin = await invite(admin, organization.id, inviteeB.credentials.email);
      await admin.client.organization.leave({ organizationId: organization.id });
      expect(
        (await inviteeB.client.organization.getInvitation({ query: { id: fromAdmin.id } })).error,
      ).toMatchObject({ status: 400, message: 'Inviter is no longer a member of the organization' });
    });

    it('refuses to accept once the organization has 100 members: Organization membership limit reached (403)', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const invitee = await signUp();
      const invitation = await invite(owner, organization.id, invitee.credentials.email);
      const fillers = Array.from({ length: 99 }, () => ({
        name: 'Filler',
        email: `filler-${randomUUID()}@example.test`,
      }));
      const users = await env.database.db.user.createManyAndReturn({ data: fillers, select: { id: true } });
      await env.database.db.member.createMany({
        data: users.map((user) => ({ organizationId: organization.id, userId: user.id, role: 'member' })),
      });

      const accepted = await invitee.client.organization.acceptInvitation({ invitationId: invitation.id });
      expect(accepted.error).toMatchObject({ status: 403, message: 'Organization membership limit reached' });
      expect(await env.database.db.member.count({ where: { organizationId: organization.id } })).toBe(100);
    });
  });

  describe('teams', () => {
    it('lists, renames and removes teams; the last team stays', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const listed = await owner.client.organization.listTeams({
        query: { organizationId: organization.id },
      });
      expect(listed.data).toEqual([
        expect.objectContaining({ name: 'Acme', organizationId: organization.id }),
      ]);
      const defaultTeam = listed.data![0]!;

      const extra = await owner.client.organization.createTeam({
        name: 'Support',
        organizationId: organization.id,
      });
      expect(extra.data).toMatchObject({ name: 'Support' });
      const renamed = await owner.client.organization.updateTeam({
        teamId: extra.data!.id,
        data: { name: 'Customer support' },
      });
      expect(renamed.data).toMatchObject({ id: extra.data!.id, name: 'Customer support' });

      const removed = await owner.client.organization.removeTeam({
        teamId: extra.data!.id,
        organizationId: organization.id,
      });
      expect(removed.data).toEqual({ message: 'Team removed successfully.' });

      // The default team is the owner's active team, which Better Auth refuses first; clear it.
      await owner.client.organization.setActiveTeam({ teamId: null });
      expect(
        (
          await owner.client.organization.removeTeam({
            teamId: defaultTeam.id,
            organizationId: organization.id,
          })
        ).error,
      ).toMatchObject({ status: 400, message: 'Unable to remove last team' });
      expect(
        (await owner.client.organization.updateTeam({ teamId: randomUUID(), data: { name: 'Ghost' } })).error,
      ).toMatchObject({ status: 400, message: 'Team not found' });
    });

    it('refuses members who may not update or delete teams', async () => {
      const owner = await signUp();
      const organization = await organizationOf(owner);
      const extra = await owner.client.organization.createTeam({
        name: 'Ops',
        organizationId: organization.id,
      });
      const member = await signUp();
      await addMember(env.database.db, organization.id, member.user.id, 'member');
      await member.client.organization.setActive({ organizationId: organization.id });

      expect(
        (await member.client.organization.updateTeam({ teamId: extra.data!.id, data: { name: 'Mine' } }))
          .error,
      ).toMatchObject({ status: 403, message: 'You are not allowed to update this team' });
      expect(
        (
          await member.client.organization.removeTeam({
            teamId: extra.data!.id,
            organizationId: organization.id,
          })
        ).error,
      ).toMatchObject({ status: 403, message: 'You are not allowed to delete teams in this organization' });
    });
  });
});
