import { getDocumentProxy } from 'unpdf';

export type ReadPage = { width: number; height: number; texts: string[] };

/**
 * Each page's size and the texts drawn on it, as pdf.js (the PDF reader of Firefox) reads them.
 * It reports some no-break spaces as plain ones, so every kind of space is compared as " ".
 */
export async function readPdf(bytes: Uint8Array): Promise<ReadPage[]> {
  const pdf = await getDocumentProxy(bytes.slice());
  try {
    const pages: ReadPage[] = [];
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      const { width, height } = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const texts = content.items.flatMap((item) =>
        'str' in item && item.str.trim() ? [item.str.replace(/\s/g, ' ')] : [],
      );
      pages.push({ width, height, texts });
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}
