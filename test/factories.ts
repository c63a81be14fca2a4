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
  overrides: {
    comment?: string;
    expiresAt?: Date | null;
    createdById?: string | null;
    scopes?: string[];
  } = {},
) {
  const { token } = await issueAccessToken(db, {
    organizationId,
    comment: overrides.comment ?? 'test token',
    createdById: overrides.createdById ?? null,
    expiresAt: overrides.expiresAt ?? null,
    scopes: overrides.scopes,
  });
  return token;
}

export function addMember(db: Db, organizationId: string, userId: string, role: string) {
  return db.member.create({ data: { organizationId, userId, role } });
}

/** An email as the dev mailbox keeps it. */
export function createMailboxMessage(
  db: Db,
  overrides: Partial<Prisma.EmailMessageUncheckedCreateInput> & { toAddress: string },
) {
  const key = randomUUID();
  return db.emailMessage.create({
    data: {
      idempotencyKey: `test:${key}`,
      subject: `Message ${key.slice(0, 8)}`,
      text: 'Hello from a test.',
      transport: 'mailbox',
      status: 'sent',
      sentAt: new Date(),
      ...overrides,
    },
  });
}

export function createMeter(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.MeterUncheckedCreateInput> = {},
) {
  return db.meter.create({
    data: {
      organizationId,
      name: `API calls ${randomUUID().slice(0, 8)}`,
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
      aggregation: { func: 'count' },
      ...overrides,
    },
  });
}

export function createCustomField(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.CustomFieldUncheckedCreateInput> = {},
) {
  const suffix = randomUUID().slice(0, 8);
  return db.customField.create({
    data: {
      organizationId,
      type: 'text',
      slug: `field-${suffix}`,
      name: `Field ${suffix}`,
      properties: { form_label: 'Field' },
      ...overrides,
    },
  });
}

/** A file row as if its bytes had been uploaded (no bytes are stored). */
export function createUploadedFile(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.FileUncheckedCreateInput> = {},
) {
  const id = randomUUID();
  return db.file.create({
    data: {
      id,
      organizationId,
      service: 'product_media',
      name: 'cover.png',
      path: `${organizationId}/${id}/cover.png`,
      mimeType: 'image/png',
      size: 3,
      uploadId: id,
      uploadParts: [{ number: 1, chunk_start: 0, chunk_end: 3, checksum_sha256_base64: null }],
      isUploaded: true,
      ...overrides,
    },
  });
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
