import { z } from 'zod';
import { nameSchema, textSchema } from '../platform/schemas.js';

// Polar's files as @polar-sh/sdk@0.33.2 reads them; spec §3 Media file.

export const FILE_SERVICES = ['downloadable', 'product_media', 'organization_avatar'] as const;
export const fileServiceSchema = z.enum(FILE_SERVICES);
export type FileService = z.infer<typeof fileServiceSchema>;

const datetime = z.iso.datetime({ offset: true });

export const uploadPartCreateSchema = z.strictObject({
  number: z.number().int().min(1),
  chunk_start: z.number().int().min(0),
  chunk_end: z.number().int().min(0),
  checksum_sha256_base64: textSchema({ max: 64 }).nullable().optional(),
});

export type UploadPartCreate = z.infer<typeof uploadPartCreateSchema>;

const createCommon = {
  organization_id: z.uuid().nullable().optional(),
  name: nameSchema(255),
  mime_type: z
    .string()
    .max(255)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Not a MIME type.'),
  size: z.number().int().min(0),
  checksum_sha256_base64: z
    .base64()
    .length(44, 'A SHA-256 checksum is 44 base64 characters.')
    .nullable()
    .optional(),
  upload: z.strictObject({ parts: z.array(uploadPartCreateSchema).min(1).max(10_000) }),
  version: textSchema({ max: 255 }).nullable().optional(),
};

export const fileCreateSchema = z.discriminatedUnion('service', [
  z.strictObject({ ...createCommon, service: z.literal('downloadable') }),
  z.strictObject({ ...createCommon, service: z.literal('product_media') }),
  z.strictObject({ ...createCommon, service: z.literal('organization_avatar') }),
]);

export type FileCreate = z.infer<typeof fileCreateSchema>;

export const filePatchSchema = z.strictObject({
  name: nameSchema(255).nullable().optional(),
  version: textSchema({ max: 255 }).nullable().optional(),
});

export type FilePatch = z.infer<typeof filePatchSchema>;

export const fileUploadCompletedSchema = z.strictObject({
  id: textSchema({ max: 1024, min: 1 }),
  path: textSchema({ max: 1024, min: 1 }),
  parts: z
    .array(
      z.strictObject({
        number: z.number().int().min(1),
        checksum_etag: textSchema({ max: 256 }),
        checksum_sha256_base64: textSchema({ max: 64 }).nullable(),
      }),
    )
    .min(1),
});

export type FileUploadCompleted = z.infer<typeof fileUploadCompletedSchema>;

const fileCommon = {
  id: z.uuid(),
  organization_id: z.uuid(),
  name: z.string(),
  path: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  storage_version: z.string().nullable(),
  checksum_etag: z.string().nullable(),
  checksum_sha256_base64: z.string().nullable(),
  checksum_sha256_hex: z.string().nullable(),
  last_modified_at: datetime.nullable(),
  version: z.string().nullable(),
  is_uploaded: z.boolean(),
  size_readable: z.string(),
};

export const uploadPartSchema = z.object({
  number: z.number().int(),
  chunk_start: z.number().int(),
  chunk_end: z.number().int(),
  checksum_sha256_base64: z.string().nullable(),
  url: z.string(),
  expires_at: datetime,
  headers: z.record(z.string(), z.string()),
});

export type UploadPart = z.infer<typeof uploadPartSchema>;

/** The answer to files.create: the file and where to PUT each part. */
export const fileUploadSchema = z.object({
  ...fileCommon,
  service: fileServiceSchema,
  upload: z.object({ id: z.string(), path: z.string(), parts: z.array(uploadPartSchema) }),
});

export type FileUpload = z.infer<typeof fileUploadSchema>;

export const productMediaFileSchema = z.object({
  ...fileCommon,
  service: z.literal('product_media'),
  created_at: datetime,
  public_url: z.string(),
});

export const downloadableFileSchema = z.object({
  ...fileCommon,
  service: z.literal('downloadable'),
  created_at: datetime,
  // Polar marks a download its scanner found malicious; Tollgate scans nothing, so it stays null.
  flagged_malicious_at: datetime.nullable(),
});

export const fileReadSchema = z.discriminatedUnion('service', [
  downloadableFileSchema,
  productMediaFileSchema,
  z.object({
    ...fileCommon,
    service: z.literal('organization_avatar'),
    created_at: datetime,
    public_url: z.string(),
  }),
]);

export type FileRead = z.infer<typeof fileReadSchema>;
export type ProductMediaFile = z.infer<typeof productMediaFileSchema>;
