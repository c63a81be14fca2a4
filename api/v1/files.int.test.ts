import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { FileCreate } from '@polar-sh/sdk/models/components/filecreate.js';
import type { FileUpload } from '@polar-sh/sdk/models/components/fileupload.js';
import { signUpUser } from '../../test/auth-client.js';
import { addMember, createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes);

describe('/v1/files', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  async function tenant() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  /** Announces `bytes` in parts of `partSize`, as Polar's upload clients do. */
  function announce(bytes: Buffer, overrides: Partial<FileCreate> = {}, partSize = bytes.length): FileCreate {
    const parts = [];
    for (let start = 0, number = 1; start < bytes.length; start += partSize, number += 1) {
      const chunk = bytes.subarray(start, start + partSize);
      parts.push({
        number,
        chunkStart: start,
        chunkEnd: start + chunk.length,
        checksumSha256Base64: sha256(chunk).digest('base64'),
      });
    }
    return {
      service: 'product_media',
      name: 'cover.png',
      mimeType: 'image/png',
      size: bytes.length,
      checksumSha256Base64: sha256(bytes).digest('base64'),
      upload: { parts },
      ...overrides,
    } as FileCreate;
  }

  /** PUTs every part to its URL over HTTP, without the API token, and collects the ETags. */
  async function putParts(upload: FileUpload, bytes: Buffer) {
    const parts = [];
    for (const part of upload.upload.parts) {
      const response = await fetch(part.url, {
        method: 'PUT',
        headers: part.headers,
        body: bytes.subarray(part.chunkStart, part.chunkEnd),
      });
      expect(response.status).toBe(200);
      parts.push({
        number: part.number,
        checksumEtag: response.headers.get('etag') ?? '',
        checksumSha256Base64: part.checksumSha256Base64 ?? null,
      });
    }
    return parts;
  }

  async function uploadFile(
    polar: Polar,
    bytes: Buffer,
    overrides: Partial<FileCreate> = {},
    partSize?: number,
  ) {
    const upload = await polar.files.create(announce(bytes, overrides, partSize));
    const parts = await putParts(upload, bytes);
    const file = await polar.files.uploaded({
      id: upload.id,
      fileUploadCompleted: { id: upload.upload.id, path: upload.upload.path, parts },
    });
    return { upload, file };
  }

  describe('upload round trip', () => {
    it('creates, PUTs the bytes in parts, completes with checksums and serves product media publicly', async () => {
      const { organization, polar } = await tenant();
      const bytes = Buffer.from('a picture of a cat, in several parts '.repeat(40));
      const { upload, file } = await uploadFile(polar, bytes, {}, 500);

      expect(upload).toMatchObject({
        organizationId: organization.id,
        name: 'cover.png',
        mimeType: 'image/png',
        size: bytes.length,
        service: 'product_media',
        isUploaded: false,
        sizeReadable: '1.4 KB',
      });
      expect(upload.upload.parts).toHaveLength(3);
      expect(upload.upload.parts[0]?.url).toMatch(`${env.stack.baseUrl}/api/files/upload/`);
      expect(upload.upload.parts[0]?.expiresAt.getTime()).toBeGreaterThan(Date.now());

      expect(file).toMatchObject({
        id: upload.id,
        service: 'product_media',
        isUploaded: true,
        checksumSha256Hex: sha256(bytes).digest('hex'),
        checksumSha256Base64: sha256(bytes).digest('base64'),
        publicUrl: `${env.stack.baseUrl}/api/files/public/${upload.id}`,
      });
      expect(file.lastModifiedAt).toBeInstanceOf(Date);

      const served = await fetch((file as { publicUrl: string }).publicUrl);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    });

    it('completes a downloadable, which has no public URL and is not served publicly', async () => {
      const { polar, token } = await tenant();
      const bytes = Buffer.from('%PDF-1.7 an ebook');
      const { file } = await uploadFile(polar, bytes, {
        service: 'downloadable',
        name: 'book.pdf',
        mimeType: 'application/pdf',
      });
      expect(file).toMatchObject({ service: 'downloadable', isUploaded: true, sizeReadable: '17.0 B' });
      expect(file).not.toHaveProperty('publicUrl');
      expect((await fetch(`${env.stack.baseUrl}/api/files/public/${file.id}`)).status).toBe(404);
      // polar-sdk 1.x requires flagged_malicious_at on a downloadable (DownloadableFileRead).
      const listed = (await (
        await fetch(`${env.stack.baseUrl}/v1/files/`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { items: Record<string, unknown>[] };
      expect(listed.items).toEqual([expect.objectContaining({ id: file.id, flagged_malicious_at: null })]);
    });

    it('refuses bytes that do not match the checksum given at creation, and keeps the file not uploaded', async () => {
      const { polar } = await tenant();
      const bytes = Buffer.from('the real bytes');
      const upload = await polar.files.create(
        announce(bytes, { checksumSha256Base64: sha256(Buffer.from('other bytes')).digest('base64') }),
      );
      const parts = await putParts(upload, bytes);
      await expect(
        polar.files.uploaded({
          id: upload.id,
          fileUploadCompleted: { id: upload.upload.id, path: upload.upload.path, parts },
        }),
      ).rejects.toMatchObject({ name: 'HTTPValidationError' });
      const [row] = await env.database.db.file.findMany({ where: { id: upload.id } });
      expect(row).toMatchObject({ isUploaded: false, checksumSha256Hex: null });
      expect(existsSync(path.join(env.stack.filesDir, 'objects', upload.path))).toBe(false);
      expect((await fetch(`${env.stack.baseUrl}/api/files/public/${upload.id}`)).status).toBe(404);
    });

    it('refuses a part whose bytes do not match its own checksum, naming the part', async () => {
      const { token, polar } = await tenant();
      const bytes = Buffer.from('0123456789abcdef');
      const upload = await polar.files.create(announce(bytes, { checksumSha256Base64: null }, 8));
      const parts = await putParts(upload, bytes);
      const response = await fetch(`${env.stack.baseUrl}/v1/files/${upload.id}/uploaded`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          id: upload.upload.id,
          path: upload.upload.path,
          parts: parts.map((part, index) => ({
            number: part.number,
            checksum_etag: part.checksumEtag,
            checksum_sha256_base64:
              index === 1 ? sha256(Buffer.from('nope')).digest('base64') : part.checksumSha256Base64,
          })),
        }),
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { loc: unknown[]; msg: string }[] };
      expect(body.detail[0]?.loc).toEqual(['body', 'parts', 1]);
      expect(body.detail[0]?.msg).toMatch(/Part 2/);
    });

    it('refuses a completion before every part was PUT', async () => {
      const { polar } = await tenant();
      const bytes = Buffer.from('never sent');
      const upload = await polar.files.create(announce(bytes));
      await expect(
        polar.files.uploaded({
          id: upload.id,
          fileUploadCompleted: {
            id: upload.upload.id,
            path: upload.upload.path,
            parts: [{ number: 1, checksumEtag: 'x', checksumSha256Base64: null }],
          },
        }),
      ).rejects.toMatchObject({ name: 'HTTPValidationError' });
    });

    it('refuses a PUT with a forged or altered token, and a part larger than announced', async () => {
      const { polar } = await tenant();
      const bytes = Buffer.from('twelve bytes');
      const upload = await polar.files.create(announce(bytes));
      const url = upload.upload.parts[0]!.url;
      const [payload, signature] = url.split('/').pop()!.split('.');
      const forged = `${env.stack.baseUrl}/api/files/upload/${payload}.${signature!.slice(0, -2)}AA`;
      expect((await fetch(forged, { method: 'PUT', body: bytes })).status).toBe(403);
      const claim = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      const altered = Buffer.from(JSON.stringify({ ...claim, maxBytes: 10_000 })).toString('base64url');
      expect(
        (
          await fetch(`${env.stack.baseUrl}/api/files/upload/${altered}.${signature}`, {
            method: 'PUT',
            body: bytes,
          })
        ).status,
      ).toBe(403);
      expect((await fetch(url, { method: 'PUT', body: Buffer.concat([bytes, bytes]) })).status).toBe(413);
      expect((await fetch(url, { method: 'PUT', body: bytes })).status).toBe(200);
    });

    // A body far past the part's size is refused while it is still arriving: the answer must not
    // write on a request the server already tore down (an uncaught stream error would take the
    // whole API process down).
    it('answers 413 to parts sent far past their size, again and again, and keeps serving', async () => {
      const { polar } = await tenant();
      const bytes = Buffer.from('twelve bytes');
      const upload = await polar.files.create(announce(bytes));
      const url = upload.upload.parts[0]!.url;
      const flood = Buffer.alloc(4 * 1024 * 1024, 7);
      const statuses = await Promise.all(
        Array.from({ length: 12 }, () =>
          fetch(url, { method: 'PUT', body: flood }).then(
            (response) => response.status,
            // The server may close the connection before the client sent everything.
            () => 413,
          ),
        ),
      );
      expect(statuses).toEqual(Array.from({ length: 12 }, () => 413));
      expect((await fetch(url, { method: 'PUT', body: bytes })).status).toBe(200);
    });
  });

  describe('files:create', () => {
    it.each([
      ['a product media file that is not an image', { mime_type: 'application/pdf' }, ['body', 'mime_type']],
      [
        'a product media file over 10 MB',
        {
          size: 10 * 1024 * 1024 + 1,
          upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 10 * 1024 * 1024 + 1 }] },
        },
        ['body', 'size'],
      ],
      [
        'parts that do not cover the file',
        { upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 5 }] } },
        ['body', 'upload', 'parts'],
      ],
      ['an unknown service', { service: 'avatar' }, ['body', 'service']],
      ['a malformed checksum', { checksum_sha256_base64: 'abc' }, ['body', 'checksum_sha256_base64']],
    ])('answers 422 for %s and stores nothing', async (_case, overrides, loc) => {
      const { organization, token } = await tenant();
      const response = await fetch(`${env.stack.baseUrl}/v1/files/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          service: 'product_media',
          name: 'cover.png',
          mime_type: 'image/png',
          size: 10,
          upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 10 }] },
          ...overrides,
        }),
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { loc: unknown[] }[] };
      expect(body.detail[0]?.loc).toEqual(loc);
      expect(await env.database.db.file.count({ where: { organizationId: organization.id } })).toBe(0);
    });
  });

  describe('files:list, files:update, files:delete', () => {
    it('lists, renames and deletes a file, removing its bytes', async () => {
      const { polar } = await tenant();
      const other = await tenant();
      const bytes = Buffer.from('avatar');
      const { file } = await uploadFile(polar, bytes, { service: 'organization_avatar', name: 'me.png' });
      await uploadFile(other.polar, bytes);

      const listed = await polar.files.list({});
      expect(listed.result.items.map((item) => item.id)).toEqual([file.id]);
      expect(listed.result.items[0]).toMatchObject({
        service: 'organization_avatar',
        publicUrl: expect.any(String),
      });
      expect((await polar.files.list({ ids: [MISSING_ID] })).result.items).toEqual([]);

      const renamed = await polar.files.update({
        id: file.id,
        filePatch: { name: 'portrait.png', version: '2' },
      });
      expect(renamed).toMatchObject({ id: file.id, name: 'portrait.png', version: '2', isUploaded: true });

      await polar.files.delete({ id: file.id });
      expect((await polar.files.list({})).result.items).toEqual([]);
      expect(existsSync(path.join(env.stack.filesDir, 'objects', file.path))).toBe(false);
      expect((await fetch(`${env.stack.baseUrl}/api/files/public/${file.id}`)).status).toBe(404);
    });

    it('keeps the bytes of a file a read-only member may not delete (403)', async () => {
      const { organization, polar } = await tenant();
      const { file } = await uploadFile(polar, Buffer.from('kept'));
      const user = await signUpUser(env.stack.baseUrl);
      await addMember(env.database.db, organization.id, user.user.id, 'member');
      const response = await fetch(`${env.stack.baseUrl}/v1/files/${file.id}`, {
        method: 'DELETE',
        headers: { ...user.sessionHeaders() },
      });
      expect(response.status).toBe(403);
      expect((await fetch((file as { publicUrl: string }).publicUrl)).status).toBe(200);
    });
  });
});
