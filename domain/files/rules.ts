import type { FileService, UploadPartCreate } from './schemas.js';

const MB = 1024 * 1024;

/**
 * What each service accepts (the SDK documents them on its create models): product media and
 * avatars are images of at most 10 MB and 1 MB; downloadables are any type, bounded only so that
 * one upload cannot fill the disk.
 */
export const SERVICE_LIMITS: Record<FileService, { maxSize: number; imagesOnly: boolean }> = {
  product_media: { maxSize: 10 * MB, imagesOnly: true },
  organization_avatar: { maxSize: 1 * MB, imagesOnly: true },
  downloadable: { maxSize: 10 * 1024 * MB, imagesOnly: false },
};

/** Services whose files anyone may fetch: they are shown on checkout pages and profiles. */
export const PUBLIC_SERVICES: readonly FileService[] = ['product_media', 'organization_avatar'];

export type FileIssue = { loc: (string | number)[]; message: string };

export function fileCreateIssues(input: {
  service: FileService;
  mime_type: string;
  size: number;
  upload: { parts: UploadPartCreate[] };
}): FileIssue[] {
  const limits = SERVICE_LIMITS[input.service];
  const issues: FileIssue[] = [];
  if (limits.imagesOnly && !input.mime_type.startsWith('image/')) {
    issues.push({ loc: ['mime_type'], message: `Only images are supported for ${input.service} files.` });
  }
  if (input.size > limits.maxSize) {
    issues.push({
      loc: ['size'],
      message: `${input.service} files may be at most ${sizeReadable(limits.maxSize)}.`,
    });
  }
  return [...issues, ...partsIssues(input.upload.parts, input.size)];
}

/**
 * Parts cover the file without gap or overlap: numbered from 1 in order, each starting where the
 * previous one ended (`chunk_end` is exclusive), the first at 0 and the last reaching the size.
 */
export function partsIssues(parts: UploadPartCreate[], size: number): FileIssue[] {
  let expectedStart = 0;
  for (const [index, part] of parts.entries()) {
    const loc = ['upload', 'parts', index];
    if (part.number !== index + 1)
      return [{ loc: [...loc, 'number'], message: `Part ${index + 1} expected here.` }];
    if (part.chunk_start !== expectedStart) {
      return [
        { loc: [...loc, 'chunk_start'], message: `Part ${part.number} must start at byte ${expectedStart}.` },
      ];
    }
    if (size > 0 && (part.chunk_end <= part.chunk_start || part.chunk_start >= size)) {
      return [{ loc: [...loc, 'chunk_end'], message: `Part ${part.number} holds no byte of the file.` }];
    }
    expectedStart = part.chunk_end;
  }
  if (expectedStart < size) {
    return [
      { loc: ['upload', 'parts'], message: `The parts end at byte ${expectedStart}; the file has ${size}.` },
    ];
  }
  return [];
}

/** Bytes of a part: the last part may announce an end beyond the file. */
export function partLength(part: { chunk_start: number; chunk_end: number }, size: number): number {
  return Math.max(0, Math.min(part.chunk_end, size) - part.chunk_start);
}

/** Polar's `size_readable`: binary units, one decimal (`512.0 B`, `1.5 MB`). */
export function sizeReadable(size: number): string {
  let value = size;
  for (const unit of ['', 'K', 'M', 'G', 'T', 'P', 'E', 'Z']) {
    if (Math.abs(value) < 1024) return `${value.toFixed(1)} ${unit}B`;
    value /= 1024;
  }
  return `${value.toFixed(1)} YB`;
}

/** Where a file's bytes live in the store: per organization and file, under a harmless name. */
export function filePath(organizationId: string, fileId: string, name: string): string {
  const safeName =
    name
      .replace(/[^\w.-]+/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 200) || 'file';
  return `${organizationId}/${fileId}/${safeName}`;
}
