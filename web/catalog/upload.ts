import {
  fileReadSchema,
  fileUploadSchema,
  type FileRead,
  type FileService,
} from '../../domain/files/schemas';
import { sendJson } from '../api';

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
