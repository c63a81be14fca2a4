import {
  fileReadSchema,
  fileUploadSchema,
  type FileRead,
  type FileService,
} from '../../domain/files/schemas';
import { SERVICE_LIMITS } from '../../domain/files/rules';
import { sendJson } from '../api';
import type { FormWords } from '../forms/messages';

/** The image formats product pages show, by the bytes each file starts with. */
const IMAGE_SIGNATURES: { type: string; matches: (head: Uint8Array) => boolean }[] = [
  {
    type: 'image/png',
    matches: (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { type: 'image/jpeg', matches: (head) => startsWith(head, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', matches: (head) => ascii(head, 0, 4) === 'GIF8' },
  { type: 'image/webp', matches: (head) => ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP' },
  {
    type: 'image/avif',
    matches: (head) => ascii(head, 4, 8) === 'ftyp' && /^avi[fs]$/.test(ascii(head, 8, 12)),
  },
];

/** What the file picker offers: the formats above. */
export const IMAGE_ACCEPT = IMAGE_SIGNATURES.map((signature) => signature.type).join(',');

function startsWith(head: Uint8Array, bytes: number[]): boolean {
  return bytes.every((byte, index) => head[index] === byte);
}

function ascii(head: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...head.subarray(from, to));
}

/** The image format the bytes start with, or null when they are not one of those shown. */
export function imageTypeOf(head: Uint8Array): string | null {
  return IMAGE_SIGNATURES.find((signature) => signature.matches(head))?.type ?? null;
}

const MB = 1024 * 1024;

/**
 * Why a file cannot be a product image, or null. The API checks the declared type and the size
 * (domain/files/rules.ts); the bytes are read here too, so that a renamed document is refused
 * before it is uploaded rather than shown as a broken image.
 */
export async function productImageProblem(file: File): Promise<string | null> {
  const { maxSize } = SERVICE_LIMITS.product_media;
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  if (!file.type.startsWith('image/') || imageTypeOf(head) === null) {
    return `“${file.name}” is not an image. Choose a PNG, JPEG, GIF, WebP or AVIF file.`;
  }
  if (file.size > maxSize) return `“${file.name}” is larger than ${maxSize / MB} MB. Choose a smaller image.`;
  return null;
}

/** The files API's refusals of an upload, in the picker's words. */
export const UPLOAD_WORDS: FormWords = {
  mime_type: { other: 'This file is not an image. Choose a PNG, JPEG, GIF, WebP or AVIF file.' },
  size: { other: 'This file is too large. Choose a smaller one.' },
  name: { other: 'Rename the file to at most 255 characters and choose it again.' },
};

async function sha256Base64(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return btoa(String.fromCharCode(...digest));
}

/** PUTs bytes with XMLHttpRequest because fetch cannot report upload progress; resolves with the ETag. */
function putBytes(
  url: string,
  headers: Record<string, string>,
  body: Blob,
  onProgress: (loaded: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) resolve(request.getResponseHeader('etag') ?? '');
      else reject(new Error(`The upload was refused (HTTP ${request.status}).`));
    };
    request.onerror = () => reject(new Error('The upload failed: the connection broke.'));
    request.send(body);
  });
}

/**
 * The files API's three steps (spec §3 Media file): announce the file with its SHA-256, PUT the
 * bytes to the URL it answers with, then complete with the part's checksum, which the server checks.
 * `onProgress` gets the fraction sent, 0 to 1.
 */
export async function uploadFile(
  file: File,
  { organizationId, service }: { organizationId: string; service: FileService },
  onProgress: (fraction: number) => void,
): Promise<FileRead> {
  const bytes = await file.arrayBuffer();
  const checksum = await sha256Base64(bytes);
  const upload = await sendJson(
    'POST',
    '/v1/files/',
    {
      organization_id: organizationId,
      service,
      name: file.name,
      mime_type: file.type || 'application/octet-stream',
      size: bytes.byteLength,
      checksum_sha256_base64: checksum,
      // One part: dashboard uploads are images and downloads of modest size, sent in one PUT.
      upload: {
        parts: [{ number: 1, chunk_start: 0, chunk_end: bytes.byteLength, checksum_sha256_base64: checksum }],
      },
    },
    fileUploadSchema,
  );
  const parts = [];
  for (const part of upload.upload.parts) {
    const etag = await putBytes(
      part.url,
      part.headers,
      file.slice(part.chunk_start, part.chunk_end),
      (loaded) => onProgress(bytes.byteLength === 0 ? 1 : (part.chunk_start + loaded) / bytes.byteLength),
    );
    parts.push({
      number: part.number,
      checksum_etag: etag,
      checksum_sha256_base64: part.checksum_sha256_base64,
    });
  }
  onProgress(1);
  return sendJson(
    'POST',
    `/v1/files/${upload.id}/uploaded`,
    { id: upload.upload.id, path: upload.upload.path, parts },
    fileReadSchema,
  );
}
