import { describe, expect, it } from '@jest/globals';
import { imageTypeOf, productImageProblem } from './upload';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d];
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

describe('imageTypeOf', () => {
  it('knows the image formats by their first bytes', () => {
    expect(imageTypeOf(new Uint8Array(PNG_HEAD))).toBe('image/png');
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(new Uint8Array(ascii('GIF89a')))).toBe('image/gif');
    expect(imageTypeOf(new Uint8Array([...ascii('RIFF'), 1, 2, 3, 4, ...ascii('WEBPVP8 ')]))).toBe(
      'image/webp',
    );
    expect(imageTypeOf(new Uint8Array([0, 0, 0, 0x1c, ...ascii('ftypavif')]))).toBe('image/avif');
  });

  it('knows no image in a document, an empty file or a text', () => {
    expect(imageTypeOf(new Uint8Array(ascii('%PDF-1.7')))).toBeNull();
    expect(imageTypeOf(new Uint8Array())).toBeNull();
    expect(imageTypeOf(new Uint8Array(ascii('<svg xmlns=')))).toBeNull();
  });
});

describe('productImageProblem', () => {
  it('takes an image', async () => {
    expect(
      await productImageProblem(new File([new Uint8Array(PNG_HEAD)], 'a.png', { type: 'image/png' })),
    ).toBeNull();
  });

  it('refuses a text file, and a document renamed to .png, naming the file', async () => {
    expect(await productImageProblem(new File(['hello'], 'notes.txt', { type: 'text/plain' }))).toBe(
      '“notes.txt” is not an image. Choose a PNG, JPEG, GIF, WebP or AVIF file.',
    );
    expect(await productImageProblem(new File(['%PDF-1.7'], 'renamed.png', { type: 'image/png' }))).toMatch(
      /^“renamed.png” is not an image/,
    );
  });

  it('refuses an image larger than the files API takes for product media', async () => {
    const large = new File([new Uint8Array(PNG_HEAD), new Uint8Array(10 * 1024 * 1024)], 'big.png', {
      type: 'image/png',
    });
    expect(await productImageProblem(large)).toBe('“big.png” is larger than 10 MB. Choose a smaller image.');
  });
});
