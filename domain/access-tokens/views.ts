import type { AccessTokenRow } from './repository.js';
import { accessTokenSchema, type AccessToken } from './schemas.js';

export function accessTokenView(row: AccessTokenRow): AccessToken {
  return accessTokenSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    scopes: row.scopes,
    expires_at: row.expiresAt?.toISOString() ?? null,
    comment: row.comment,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    organization_id: row.organizationId,
  });
}
