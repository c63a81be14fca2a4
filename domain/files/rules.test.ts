import { describe, expect, it } from '@jest/globals';
import { fileCreateIssues, filePath, partLength, partsIssues, sizeReadable } from './rules.js';

const part = (number: number, chunk_start: number, chunk_end: number) => ({ number, chunk_start, chunk_end });

describe('sizeReadable', () => {
  it('writes sizes in binary units with one decimal, as Polar does', () => {
    expect(sizeReadable(0)).toBe('0.0 B');
    expect(sizeReadable(512)).toBe('512.0 B');
    expect(sizeReadable(1023)).toBe('1023.0 B');
    expect(sizeReadable(1024)).toBe('1.0 KB');
    expect(sizeReadable(1536)).toBe('1.5 KB');
    expect(sizeReadable(10 * 1024 * 1024)).toBe('10.0 MB');
    expect(sizeReadable(3 * 1024 ** 3)).toBe('3.0 GB');
  });
});

describe('partsIssues', () => {
  it('accepts parts that cover the file in order, the last one possibly announcing more', () => {
    expect(partsIssues([part(1, 0, 100)], 100)).toEqual([]);
    expect(partsIssues([part(1, 0, 60), part(2, 60, 120)], 100)).toEqual([]);
    expect(partsIssues([part(1, 0, 0)], 0)).toEqual([]);
  });

  it('refuses gaps, overlaps, wrong numbering, short coverage and parts past the end', () => {
    expect(partsIssues([part(1, 0, 50), part(2, 51, 100)], 100)[0]?.loc).toEqual([
      'upload',
      'parts',
      1,
      'chunk_start',
    ]);
    expect(partsIssues([part(1, 0, 50), part(2, 40, 100)], 100)).toHaveLength(1);
    expect(partsIssues([part(2, 0, 100)], 100)[0]?.loc).toEqual(['upload', 'parts', 0, 'number']);
    expect(partsIssues([part(1, 0, 99)], 100)[0]?.loc).toEqual(['upload', 'parts']);
    expect(partsIssues([part(1, 0, 100), part(2, 100, 200)], 100)[0]?.loc).toEqual([
      'upload',
      'parts',
      1,
      'chunk_end',
    ]);
  });

  it('counts the bytes of a part within the file', () => {
    expect(partLength(part(1, 0, 60), 100)).toBe(60);
    expect(partLength(part(2, 60, 120), 100)).toBe(40);
  });
});

describe('fileCreateIssues', () => {
  const upload = (size: number) => ({ parts: [part(1, 0, size)] });

  it('keeps product media and avatars to images within their size limits', () => {
    expect(
      fileCreateIssues({ service: 'product_media', mime_type: 'image/png', size: 10, upload: upload(10) }),
    ).toEqual([]);
    expect(
      fileCreateIssues({
        service: 'product_media',
        mime_type: 'application/pdf',
        size: 10,
        upload: upload(10),
      })[0]?.loc,
    ).toEqual(['mime_type']);
    const tooBig = 10 * 1024 * 1024 + 1;
    expect(
      fileCreateIssues({
        service: 'product_media',
        mime_type: 'image/png',
        size: tooBig,
        upload: upload(tooBig),
      })[0]?.loc,
    ).toEqual(['size']);
    const avatar = 1024 * 1024 + 1;
    expect(
      fileCreateIssues({
        service: 'organization_avatar',
        mime_type: 'image/png',
        size: avatar,
        upload: upload(avatar),
      })[0]?.loc,
    ).toEqual(['size']);
    expect(
      fileCreateIssues({
        service: 'downloadable',
        mime_type: 'application/zip',
        size: tooBig,
        upload: upload(tooBig),
      }),
    ).toEqual([]);
  });
});

describe('filePath', () => {
  it('keeps the name harmless inside the organization and file folder', () => {
    expect(filePath('org', 'file', 'cover image.png')).toBe('org/file/cover_image.png');
    expect(filePath('org', 'file', '../../etc/passwd')).toBe('org/file/__.._etc_passwd');
    expect(filePath('org', 'file', '...')).toBe('org/file/_');
  });
});
