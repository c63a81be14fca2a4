import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import {
  accessibleOrganizationIds,
  assertCanManage,
  organizationForWrite,
  organizationsToList,
} from '../access/service.js';
import { AppError, InvalidFieldError, InvalidInputError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import type { PageQuery } from '../platform/schemas.js';
import {
  deleteFile as removeFileRow,
  findFile,
  findFileById,
  insertFile,
  listFiles as queryFiles,
  markFileUploaded,
  updateFile as saveFile,
  type FileRow,
} from './repository.js';
import { fileCreateIssues, filePath, PUBLIC_SERVICES } from './rules.js';
import {
  fileUploadSchema,
  type FileCreate,
  type FilePatch,
  type FileRead,
  type FileService,
  type FileUpload,
  type FileUploadCompleted,
} from './schemas.js';
import { UploadRejected, type FileStorage, type PlannedPart } from './storage.js';
import { fileView, commonFields } from './views.js';

export type FilesContext = { db: Db; storage: FileStorage; publicUrl: string };

/** Where anyone can fetch a public file's bytes, served by Tollgate from the store. */

const invalid = (issues: { loc: (string | number)[]; message: string }[]) =>
  new InvalidInputError(
    issues.map((issue) => ({ loc: ['body', ...issue.loc], msg: issue.message, type: 'value_error' })),
  );

export async function createFile(ctx: FilesContext, caller: Caller, input: FileCreate): Promise<FileUpload> {
  const organizationId = await organizationForWrite(
    ctx.db,
    caller,
    input.organization_id,
    ORGANIZATION_MANAGERS,
  );
  const issues = fileCreateIssues(input);
  if (issues.length > 0) throw invalid(issues);
  const id = randomUUID();
  const path = filePath(organizationId, id, input.name);
  const planned: PlannedPart[] = input.upload.parts.map((part) => ({
    number: part.number,
    chunk_start: part.chunk_start,
    chunk_end: part.chunk_end,
    checksum_sha256_base64: part.checksum_sha256_base64 ?? null,
  }));
  const upload = await ctx.storage.startUpload({
    fileId: id,
    path,
    mimeType: input.mime_type,
    size: input.size,
    parts: planned,
  });
  const row = await insertFile(ctx.db, {
    id,
    organizationId,
    service: input.service,
    name: input.name,
    version: input.version ?? null,
    path,
    mimeType: input.mime_type,
    size: input.size,
    uploadId: upload.uploadId,
    uploadParts: planned,
    declaredSha256Base64: input.checksum_sha256_base64 ?? null,
  });
  return fileUploadSchema.parse({
    ...commonFields(row),
    service: input.service,
    upload: {
      id: upload.uploadId,
      path,
      parts: upload.parts.map((part) => ({ ...part, expires_at: part.expires_at.toISOString() })),
    },
  });
}

export async function listFiles(
  ctx: FilesContext,
  caller: Caller,
  query: PageQuery & { organization_id?: string | string[]; ids?: string | string[] },
) {
  const organizationIds = await organizationsToList(ctx.db, caller, query.organization_id);
  const ids = query.ids === undefined ? undefined : [query.ids].flat();
  const [rows, total] = await queryFiles(
    ctx.db,
    { organizationId: { in: organizationIds }, ...(ids ? { id: { in: ids } } : {}) },
    pageToSkipTake(query),
  );
  return paginated(
    rows.map((row) => fileView(row, ctx.publicUrl)),
    total,
    query,
  );
}

async function findWritable(ctx: FilesContext, caller: Caller, id: string) {
  const row = await findFile(ctx.db, id, await accessibleOrganizationIds(ctx.db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'File not found');
  await assertCanManage(ctx.db, caller, row.organizationId, ORGANIZATION_MANAGERS);
  return row;
}

export async function updateFile(
  ctx: FilesContext,
  caller: Caller,
  id: string,
  input: FilePatch,
): Promise<FileRead> {
  const existing = await findWritable(ctx, caller, id);
  const row = await saveFile(ctx.db, id, existing.organizationId, {
    ...(input.name ? { name: input.name } : {}),
    ...(input.version !== undefined ? { version: input.version } : {}),
    modifiedAt: new Date(),
  });
  return fileView(row, ctx.publicUrl);
}

/**
 * Completes the upload and checks what the store now holds against what was announced: the size,
 * and the SHA-256 declared at creation and per part. Bytes that do not match are dropped and the
 * file stays not uploaded. Completing an uploaded file again answers it unchanged.
 */
export async function completeFileUpload(
  ctx: FilesContext,
  caller: Caller,
  id: string,
  input: FileUploadCompleted,
): Promise<FileRead> {
  const existing = await findWritable(ctx, caller, id);
  if (existing.isUploaded) return fileView(existing, ctx.publicUrl);
  if (input.id !== existing.uploadId)
    throw new InvalidFieldError(['body', 'id'], 'This is not the upload of this file.');
  if (input.path !== existing.path)
    throw new InvalidFieldError(['body', 'path'], 'This is not the path of this file.');
  const planned = existing.uploadParts as PlannedPart[];
  if (
    input.parts.length !== planned.length ||
    input.parts.some((part) => !planned.some((plan) => plan.number === part.number))
  ) {
    throw new InvalidFieldError(
      ['body', 'parts'],
      `The upload has ${planned.length} part(s), numbered as announced.`,
    );
  }

  let stored;
  try {
    stored = await ctx.storage.completeUpload({
      fileId: existing.id,
      path: existing.path,
      uploadId: existing.uploadId,
      planned,
      parts: input.parts,
    });
  } catch (error) {
    if (error instanceof UploadRejected) {
      throw new InvalidFieldError(
        error.partIndex === undefined ? ['body', 'parts'] : ['body', 'parts', error.partIndex],
        error.message,
      );
    }
    throw error;
  }
  const base64 = stored.sha256.toString('base64');
  const mismatch =
    stored.size !== Number(existing.size)
      ? new InvalidFieldError(
          ['body', 'parts'],
          `The stored file has ${stored.size} bytes; ${existing.size} were announced.`,
        )
      : existing.declaredSha256Base64 !== null && existing.declaredSha256Base64 !== base64
        ? new InvalidFieldError(
            ['body', 'parts'],
            'The stored file does not match the SHA-256 checksum given at creation.',
          )
        : null;
  if (mismatch) {
    await ctx.storage.remove({ fileId: existing.id, path: existing.path, uploadId: existing.uploadId });
    throw mismatch;
  }
  const row = await markFileUploaded(ctx.db, existing.id, existing.organizationId, {
    isUploaded: true,
    checksumSha256Base64: base64,
    checksumSha256Hex: stored.sha256.toString('hex'),
    checksumEtag: stored.etag,
    storageVersion: stored.version,
    lastModifiedAt: stored.lastModifiedAt,
    modifiedAt: new Date(),
  });
  return fileView(row ?? (await findFileById(ctx.db, existing.id))!, ctx.publicUrl);
}

/** Deletes the file and its bytes; products showing it stop showing it. */
export async function deleteFile(ctx: FilesContext, caller: Caller, id: string): Promise<void> {
  const existing = await findWritable(ctx, caller, id);
  // The row goes first: bytes left behind by a failure are harmless, a row without bytes is not.
  await removeFileRow(ctx.db, existing.id, existing.organizationId);
  await ctx.storage.remove({ fileId: existing.id, path: existing.path, uploadId: existing.uploadId });
}

/** The bytes of an uploaded public file (product media, avatar), for anyone; null when none. */
export async function readPublicFile(
  ctx: FilesContext,
  id: string,
): Promise<{ row: FileRow; body: Readable } | null> {
  const row = await findFileById(ctx.db, id);
  if (!row || !row.isUploaded || !PUBLIC_SERVICES.includes(row.service as FileService)) return null;
  const body = await ctx.storage.read(row.path);
  return body ? { row, body } : null;
}

/** Whether parts may still be PUT for this file: it exists and is not uploaded yet. */
export async function isAwaitingUpload(ctx: FilesContext, id: string): Promise<boolean> {
  const row = await findFileById(ctx.db, id);
  return row !== null && !row.isUploaded;
}
