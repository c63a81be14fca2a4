import { createHash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import {
  UploadRejected,
  type FileStorage,
  type PresignedPart,
  type StoredObject,
} from '../../domain/files/storage.js';
import { UPLOAD_URL_TTL_MS } from '../local-disk/storage.js';

export type S3Settings = {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
};

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

/**
 * File bytes in an S3-compatible bucket. Parts go straight from the client to the bucket through
 * presigned UploadPart URLs, as with Polar; completion assembles them in the bucket, then the
 * object is read back once to checksum exactly what is stored.
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
  }

  async startUpload(input: Parameters<FileStorage['startUpload']>[0]) {
    const created = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.settings.bucket,
        Key: input.path,
        ContentType: input.mimeType,
      }),
    );
    if (!created.UploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');
    const uploadId = created.UploadId;
    const expiresIn = UPLOAD_URL_TTL_MS / 1000;
    const expiresAt = new Date(Date.now() + UPLOAD_URL_TTL_MS);
    const parts: PresignedPart[] = await Promise.all(
      input.parts.map(async (part) => ({
        ...part,
        url: await getSignedUrl(
          this.client,
          new UploadPartCommand({
            Bucket: this.settings.bucket,
            Key: input.path,
            UploadId: uploadId,
            PartNumber: part.number,
          }),
          { expiresIn },
        ),
        expires_at: expiresAt,
        headers: {},
      })),
    );
    return { uploadId, parts };
  }

  async completeUpload(input: Parameters<FileStorage['completeUpload']>[0]): Promise<StoredObject> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: input.path,
          UploadId: input.uploadId,
          MultipartUpload: {
            Parts: [...input.parts]
              .sort((a, b) => a.number - b.number)
              .map((part) => ({ PartNumber: part.number, ETag: part.checksum_etag })),
          },
        }),
      );
    } catch (error) {
      // Wrong ETags, parts never sent or an upload already gone: the client's parts do not add up.
      if (error instanceof S3ServiceException && (error.$metadata.httpStatusCode ?? 500) < 500) {
        throw new UploadRejected(`The bucket refused to assemble the parts: ${error.name}.`);
      }
      throw error;
    }
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: input.path }),
    );
    const hash = createHash('sha256');
    const ranges = [...input.planned].sort((a, b) => a.number - b.number);
    const partHashes = ranges.map(() => createHash('sha256'));
    let size = 0;
    for await (const chunk of object.Body as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      for (const [index, range] of ranges.entries()) {
        const from = Math.max(range.chunk_start - size, 0);
        const to = Math.min(range.chunk_end - size, chunk.length);
        if (from < to) partHashes[index]?.update(chunk.subarray(from, to));
      }
      size += chunk.length;
    }
    for (const [index, range] of ranges.entries()) {
      const given = input.parts.find((part) => part.number === range.number)?.checksum_sha256_base64;
      if (given && partHashes[index]?.digest('base64') !== given) {
        await this.remove({ fileId: input.fileId, path: input.path, uploadId: input.uploadId });
        const at = input.parts.findIndex((part) => part.number === range.number);
        throw new UploadRejected(`Part ${range.number} does not match its SHA-256 checksum.`, at);
      }
    }
    const head = await this.client.send(
      new HeadObjectCommand({ Bucket: this.settings.bucket, Key: input.path }),
    );
    return {
      size,
      sha256: hash.digest(),
      etag: head.ETag?.replace(/"/g, '') ?? null,
      version: head.VersionId ?? null,
      lastModifiedAt: head.LastModified ?? new Date(),
    };
  }

  async write(input: Parameters<FileStorage['write']>[0]) {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: input.path,
        Body: input.bytes,
        ContentType: input.mimeType,
      }),
    );
  }

  async downloadUrl(input: Parameters<FileStorage['downloadUrl']>[0]) {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: input.path,
        ResponseContentType: input.mimeType,
        ResponseContentDisposition: `attachment; filename="${input.filename.replace(/["\\]/g, '')}"`,
      }),
      { expiresIn: Math.max(1, Math.round(input.expiresInMs / 1000)) },
    );
  }

  async read(path: string): Promise<Readable | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: path }),
      );
      return (object.Body as Readable | undefined) ?? null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async remove(input: Parameters<FileStorage['remove']>[0]) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: input.path }));
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: input.path,
          UploadId: input.uploadId,
        }),
      );
    } catch (error) {
      // A completed upload no longer exists to abort.
      if (!(error instanceof S3ServiceException)) throw error;
    }
  }
}
