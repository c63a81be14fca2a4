import type { FileRow } from './repository.js';
import { PUBLIC_SERVICES, sizeReadable } from './rules.js';
import { fileReadSchema, type FileRead, type FileService } from './schemas.js';

export const publicFileUrl = (publicUrl: string, id: string) => `${publicUrl}/api/files/public/${id}`;

export function commonFields(row: FileRow) {
  return {
    id: row.id,
    organization_id: row.organizationId,
    name: row.name,
    path: row.path,
    mime_type: row.mimeType,
    size: Number(row.size),
    storage_version: row.storageVersion,
    checksum_etag: row.checksumEtag,
    checksum_sha256_base64: row.checksumSha256Base64 ?? row.declaredSha256Base64,
    checksum_sha256_hex: row.checksumSha256Hex,
    last_modified_at: row.lastModifiedAt?.toISOString() ?? null,
    version: row.version,
    is_uploaded: row.isUploaded,
    size_readable: sizeReadable(Number(row.size)),
  };
}

export function fileView(row: FileRow, publicUrl: string): FileRead {
  const service = row.service as FileService;
  return fileReadSchema.parse({
    ...commonFields(row),
    service,
    created_at: row.createdAt.toISOString(),
    ...(service === 'downloadable' ? { flagged_malicious_at: null } : {}),
    ...(PUBLIC_SERVICES.includes(service) ? { public_url: publicFileUrl(publicUrl, row.id) } : {}),
  });
}
