import { randomUUID } from 'node:crypto';
import { issueAccessToken } from '../domain/access-tokens/service.js';
import type { Db } from '../infra/db.js';
import type { Prisma } from '../generated/prisma/client.js';

export function createOrganization(db: Db, overrides: Partial<Prisma.OrganizationUncheckedCreateInput> = {}) {
  const suffix = randomUUID().slice(0, 8);
  return db.organization.create({ data: { name: `Acme ${suffix}`, slug: `acme-${suffix}`, ...overrides } });
}

export async function createAccessToken(
  db: Db,
  organizationId: string,
  overrides: { comment?: string; expiresAt?: Date | null; createdById?: string | null } = {},
) {
  const { token } = await issueAccessToken(db, {
    organizationId,
    comment: overrides.comment ?? 'test token',
    createdById: overrides.createdById ?? null,
    expiresAt: overrides.expiresAt ?? null,
  });
  return token;
}

export function addMember(db: Db, organizationId: string, userId: string, role: string) {
  return db.member.create({ data: { organizationId, userId, role } });
}

export function createWebhookEndpoint(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.WebhookEndpointUncheckedCreateInput> = {},
) {
  return db.webhookEndpoint.create({
    data: {
      organizationId,
      url: 'https://hooks.example.test/polar',
      format: 'raw',
      secret: `whs_${randomUUID()}`,
      events: ['organization.updated'],
      ...overrides,
    },
  });
}

/** A user who belongs to the organization with `role` (owners get the disabled-endpoint email). */
export async function createMemberUser(db: Db, organizationId: string, role: string) {
  const suffix = randomUUID().slice(0, 8);
  const user = await db.user.create({
    data: { name: `Owner ${suffix}`, email: `owner-${suffix}@example.test` },
  });
  await addMember(db, organizationId, user.id, role);
  return user;
}
