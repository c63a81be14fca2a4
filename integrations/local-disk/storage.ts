import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { partLength } from '../../domain/files/rules.js';
import {
  UploadRejected,
  type FileStorage,
  type PresignedPart,
  type StoredObject,
} from '../../domain/files/storage.js';

/** Upload URLs stay valid this long, as S3 presigned URLs do for Polar. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;

type UploadClaim = { fileId: string; part: number; maxBytes: number; expiresAt: number };
type DownloadClaim = { path: string; filename: string; mimeType: string; expiresAt: number };

export class UploadTokenInvalid extends Error {
  constructor(
    readonly status: 403 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'UploadTokenInvalid';
  }
}

/**
 * File bytes on the local disk under `root`. Parts are PUT to Tollgate itself
 * (`<publicUrl>/api/files/upload/<token>`): the token names the file, the part and its size,
 * expires, and is signed, so the upload needs no session.
 */
/**
 * Compares the signature as text: base64url's last character carries unused bits, so decoding
 * first would accept several spellings of one signature (a tampered URL that still works).
 */
function isSignedBy(key: Buffer, payload: string, signature: string): boolean {
  const expected = Buffer.from(createHmac('sha256', key).update(payload).digest('base64url'));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export class LocalFileStorage implements FileStorage {
  private readonly key: Buffer;

  constructor(
    private readonly options: { root: string; publicUrl: string; secret: string; now?: () => number },
  ) {
    // A key of its own, so an upload token can never stand in for anything signed with the secret.
    this.key = createHmac('sha256', options.secret).update('tollgate file upload tokens').digest();
    this.downloadKey = createHmac('sha256', options.secret).update('tollgate file download links').digest();
  }

  private readonly downloadKey: Buffer;

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  private objectFile(objectPath: string) {
    const file = path.resolve(this.options.root, 'objects', objectPath);
    if (!file.startsWith(path.resolve(this.options.root, 'objects') + path.sep)) {
      throw new Error(`file path escapes the store: ${objectPath}`);
    }
    return file;
  }

  private partFile(fileId: string, part: number) {
    if (!/^[0-9a-f-]{36}$/.test(fileId)) throw new Error(`not a file id: ${fileId}`);
    return path.resolve(this.options.root, 'parts', fileId, String(part));
  }

  sign(claim: UploadClaim): string {
    const payload = Buffer.from(JSON.stringify(claim)).toString('base64url');
    const signature = createHmac('sha256', this.key).update(payload).digest('base64url');
    return `${payload}.${signature}`;
  }

  verify(token: string): UploadClaim {
    const [payload = '', signature = ''] = token.split('.');
    if (!isSignedBy(this.key, payload, signature)) {
      throw new UploadTokenInvalid(403, 'The upload URL is not valid.');
    }
    const claim = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as UploadClaim;
    if (claim.expiresAt <= this.now()) throw new UploadTokenInvalid(403, 'The upload URL has expired.');
    return claim;
  }

  async startUpload(input: Parameters<FileStorage['startUpload']>[0]) {
    const expiresAt = this.now() + UPLOAD_URL_TTL_MS;
    const parts: PresignedPart[] = input.parts.map((part) => ({
      ...part,
      url: `${this.options.publicUrl}/api/files/upload/${this.sign({
        fileId: input.fileId,
        part: part.number,
        maxBytes: partLength(part, input.size),
        expiresAt,
      })}`,
      expires_at: new Date(expiresAt),
      headers: { 'Content-Type': input.mimeType },
    }));
    return { uploadId: input.fileId, parts };
  }

  /** Stores the body of one part PUT; answers the part's ETag (its SHA-256, hex). */
  async receivePart(token: string, body: Readable): Promise<{ fileId: string; etag: string }> {
    const claim = this.verify(token);
    const file = this.partFile(claim.fileId, claim.part);
    await mkdir(path.dirname(file), { recursive: true });
    const hash = createHash('sha256');
    let received = 0;
    const temporary = `${file}.${process.pid}.${this.now()}.tmp`;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            received += chunk.length;
            if (received > claim.maxBytes) {
              throw new UploadTokenInvalid(413, `This part may hold at most ${claim.maxBytes} bytes.`);
            }
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(temporary),
      );
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { fileId: claim.fileId, etag: hash.digest('hex') };
  }

  async completeUpload(input: Parameters<FileStorage['completeUpload']>[0]): Promise<StoredObject> {
    const target = this.objectFile(input.path);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${this.now()}.tmp`;
    const whole = createHash('sha256');
    let size = 0;
    const parts = [...input.parts].sort((a, b) => a.number - b.number);
    const out = createWriteStream(temporary);
    try {
      for (const part of parts) {
        // Issues name the part's place in the completion body, whatever order it came in.
        const index = input.parts.indexOf(part);
        const partHash = createHash('sha256');
        const source = createReadStream(this.partFile(input.fileId, part.number));
        try {
          for await (const chunk of source as AsyncIterable<Buffer>) {
            partHash.update(chunk);
            whole.update(chunk);
            size += chunk.length;
            if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
          }
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            throw new UploadRejected(`Part ${part.number} was never uploaded.`, index);
          }
          throw error;
        }
        const digest = partHash.digest();
        if (
          part.checksum_sha256_base64 !== null &&
          digest.toString('base64') !== part.checksum_sha256_base64
        ) {
          throw new UploadRejected(`Part ${part.number} does not match its SHA-256 checksum.`, index);
        }
      }
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      await rename(temporary, target);
    } catch (error) {
      out.destroy();
      await rm(temporary, { force: true });
      throw error;
    }
    await rm(path.resolve(this.options.root, 'parts', input.fileId), { recursive: true, force: true });
    const sha256 = whole.digest();
    return {
      size,
      sha256,
      etag: sha256.toString('hex'),
      version: null,
      lastModifiedAt: (await stat(target)).mtime,
    };
  }

  async write(input: Parameters<FileStorage['write']>[0]) {
    const target = this.objectFile(input.path);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, input.bytes);
    await rename(temporary, target);
  }

  async downloadUrl(input: Parameters<FileStorage['downloadUrl']>[0]) {
    const claim: DownloadClaim = {
      path: input.path,
      filename: input.filename,
      mimeType: input.mimeType,
      expiresAt: this.now() + input.expiresInMs,
    };
    return `${this.options.publicUrl}/api/files/download/${this.signWith(this.downloadKey, claim)}`;
  }

  /** The object a download link names, or null when the link is forged or expired. */
  verifyDownload(token: string): DownloadClaim | null {
    const claim = this.verifyWith<DownloadClaim>(this.downloadKey, token);
    return claim && claim.expiresAt > this.now() ? claim : null;
  }

  private signWith(key: Buffer, claim: object): string {
    const payload = Buffer.from(JSON.stringify(claim)).toString('base64url');
    return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
  }

  private verifyWith<T>(key: Buffer, token: string): T | null {
    const [payload = '', signature = ''] = token.split('.');
    if (!isSignedBy(key, payload, signature)) return null;
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
  }

  async read(objectPath: string): Promise<Readable | null> {
    const file = this.objectFile(objectPath);
    try {
      await stat(file);
    } catch {
      return null;
    }
    return createReadStream(file);
  }

  async remove(input: Parameters<FileStorage['remove']>[0]) {
    await rm(this.objectFile(input.path), { force: true });
    await rm(path.resolve(this.options.root, 'parts', input.fileId), { recursive: true, force: true });
  }
}
