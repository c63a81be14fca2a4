import type { ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { ensureFakeS3 } from '../../scripts/lib/tools.js';
import { projectRoot } from '../../scripts/lib/paths.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { startTestStack, type TestStack } from '../../test/stack.js';
import { findFreePort, spawnLogged, stopChild, waitFor } from '../processes.js';
import { S3FileStorage } from './s3.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes);

/** The S3 file store against a real S3-compatible server (gofakes3, in memory). */
describe('S3FileStorage', () => {
  let server: ChildProcess;
  let storage: S3FileStorage;
  let database: TestDatabase;
  let stack: TestStack;

  beforeAll(async () => {
    const binary = await ensureFakeS3(() => undefined);
    const port = await findFreePort();
    server = spawnLogged(
      binary,
      ['-backend', 'memory', '-host', `127.0.0.1:${port}`, '-initialbucket', 'files'],
      {
        logFile: path.join(projectRoot, '.data', 'logs', 'test-gofakes3.log'),
      },
    );
    const endpoint = `http://127.0.0.1:${port}`;
    await waitFor('gofakes3', async () => (await fetch(endpoint).catch(() => undefined))?.status, {
      timeoutMs: 10_000,
    });
    storage = new S3FileStorage({
      endpoint,
      bucket: 'files',
      region: 'us-east-1',
      accessKeyId: 'test',
      secretAccessKey: 'test',
      forcePathStyle: true,
    });
    database = await createTestDatabase();
    stack = await startTestStack({ db: database.db, withWorker: false, fileStorage: storage });
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
    if (server) await stopChild(server);
  });

  async function putParts(
    parts: {
      url: string;
      headers: Record<string, string>;
      chunk_start: number;
      chunk_end: number;
      number: number;
    }[],
    bytes: Buffer,
  ) {
    const done = [];
    for (const part of parts) {
      const response = await fetch(part.url, {
        method: 'PUT',
        headers: part.headers,
        body: bytes.subarray(part.chunk_start, part.chunk_end),
      });
      expect(response.status).toBe(200);
      done.push({
        number: part.number,
        checksum_etag: response.headers.get('etag') ?? '',
        checksum_sha256_base64: sha256(bytes.subarray(part.chunk_start, part.chunk_end)).digest('base64'),
      });
    }
    return done;
  }

  it('uploads through presigned part URLs, checksums what the bucket holds, reads and removes it', async () => {
    const bytes = Buffer.from('bytes kept in a bucket');
    const fileId = randomUUID();
    const key = `org/${fileId}/data.bin`;
    const planned = [{ number: 1, chunk_start: 0, chunk_end: bytes.length, checksum_sha256_base64: null }];
    const upload = await storage.startUpload({
      fileId,
      path: key,
      mimeType: 'application/octet-stream',
      size: bytes.length,
      parts: planned,
    });
    const parts = await putParts(upload.parts, bytes);
    const stored = await storage.completeUpload({
      fileId,
      path: key,
      uploadId: upload.uploadId,
      planned,
      parts,
    });
    expect(stored.size).toBe(bytes.length);
    expect(stored.sha256.toString('hex')).toBe(sha256(bytes).digest('hex'));

    const body = await storage.read(key);
    const chunks: Buffer[] = [];
    for await (const chunk of body!) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks)).toEqual(bytes);

    await storage.remove({ fileId, path: key, uploadId: upload.uploadId });
    expect(await storage.read(key)).toBeNull();
  });

  it('refuses a part whose bytes do not match its checksum and keeps nothing', async () => {
    const bytes = Buffer.from('the bytes that were sent');
    const fileId = randomUUID();
    const key = `org/${fileId}/data.bin`;
    const planned = [{ number: 1, chunk_start: 0, chunk_end: bytes.length, checksum_sha256_base64: null }];
    const upload = await storage.startUpload({
      fileId,
      path: key,
      mimeType: 'application/octet-stream',
      size: bytes.length,
      parts: planned,
    });
    const [part] = await putParts(upload.parts, bytes);
    await expect(
      storage.completeUpload({
        fileId,
        path: key,
        uploadId: upload.uploadId,
        planned,
        parts: [{ ...part!, checksum_sha256_base64: sha256(Buffer.from('other')).digest('base64') }],
      }),
    ).rejects.toMatchObject({ name: 'UploadRejected', partIndex: 0 });
    expect(await storage.read(key)).toBeNull();
  });

  it('serves a product media round trip through the Polar SDK from the bucket', async () => {
    const organization = await createOrganization(database.db);
    const polar = new Polar({
      accessToken: await createAccessToken(database.db, organization.id),
      serverURL: stack.baseUrl,
    });
    const bytes = Buffer.from('an image stored in S3');
    const upload = await polar.files.create({
      service: 'product_media',
      name: 'cover.png',
      mimeType: 'image/png',
      size: bytes.length,
      checksumSha256Base64: sha256(bytes).digest('base64'),
      upload: { parts: [{ number: 1, chunkStart: 0, chunkEnd: bytes.length }] },
    });
    expect(upload.upload.parts[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
    const parts = await putParts(
      upload.upload.parts.map((part) => ({
        ...part,
        chunk_start: part.chunkStart,
        chunk_end: part.chunkEnd,
        headers: part.headers ?? {},
      })),
      bytes,
    );
    const file = await polar.files.uploaded({
      id: upload.id,
      fileUploadCompleted: {
        id: upload.upload.id,
        path: upload.upload.path,
        parts: parts.map((part) => ({
          number: part.number,
          checksumEtag: part.checksum_etag,
          checksumSha256Base64: part.checksum_sha256_base64,
        })),
      },
    });
    expect(file).toMatchObject({ isUploaded: true, checksumSha256Hex: sha256(bytes).digest('hex') });
    const served = await fetch(`${stack.baseUrl}/api/files/public/${upload.id}`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    await polar.files.delete({ id: upload.id });
    expect(await storage.read(upload.path)).toBeNull();
  });
});
