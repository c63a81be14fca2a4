// The invoice PDF of an order. pdf-lib writes the file; text is set in Helvetica, one of the
// fonts every PDF reader has built in, so an ordinary invoice embeds no font at all. Those fonts
// only know the WinAnsi characters (western European), so a text with anything else (Ł, Ω, Я)
// is set in DejaVu Sans, shipped in the `dejavu-fonts-ttf` package and embedded as a subset.
// What neither covers (CJK, emoji, right-to-left scripts, which pdf-lib cannot shape) is
// replaced, by its unaccented letter when there is one, else by "?", so no name stops an invoice.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { formatDay } from '../dates/rules.js';
import { formatMoney } from '../money/rules.js';
import { formatAddressLines } from './rules.js';
import { invoiceDocumentSchema, type InvoiceDocument } from './schemas.js';

type Face = 'regular' | 'bold';
type Styled = { text: string; font: PDFFont };
type Line = { text: string; face: Face };

const PAPER_SIZES = { a4: [595.28, 841.89], letter: [612, 792] } as const;
// CLDR's paper-size data: these regions use US Letter, the rest of the world A4.
const LETTER_REGIONS = new Set('BZ CA CL CO CR GT MX NI PA PE PH PR SV US VE'.split(' '));

const MARGIN = 56;
const FOOTER_BASELINE = 32;
const CONTENT_BOTTOM = 64;
const COLUMN_GAP = 24;
const CELL_PADDING = 5;
const LEADING = 1.4;
const SIZE = { title: 22, headline: 14, name: 10.5, body: 9.5, label: 8.5, footer: 8 } as const;
// A label or name longer than this many lines is cut with an ellipsis, so that one absurd item
// cannot outgrow a page (and the layout always terminates).
const MAX_LINES = { item: 12, field: 3, totalLabel: 3 } as const;

const INK = rgb(0.09, 0.1, 0.12);
const MUTED = rgb(0.42, 0.45, 0.5);
const RULE = rgb(0.85, 0.86, 0.88);
const STRONG_RULE = rgb(0.55, 0.57, 0.6);

/**
 * The invoice as a PDF: seller and buyer, number and dates, one row per item, then subtotal,
 * discount, tax, total and what was paid or refunded. Items run onto further pages when they do
 * not fit; every page carries the invoice number and "Page i of n". Throws a ZodError for a
 * document that does not hold together (see `invoiceDocumentSchema`).
 */
export async function renderInvoicePdf(input: InvoiceDocument): Promise<Uint8Array> {
  const document = invoiceDocumentSchema.parse(input);
  const locale = document.locale ?? 'en-US';
  const content = describeInvoice(document, locale);

  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`${content.title} ${document.number}`, { showInWindowTitleBar: true });
  pdf.setAuthor(document.seller.name);
  pdf.setSubject(`Order ${document.orderNumber}`);
  pdf.setCreator('Tollgate');
  pdf.setProducer('Tollgate');
  pdf.setLanguage(locale);
  pdf.setCreationDate(document.issuedAt);
  pdf.setModificationDate(document.issuedAt);

  const typesetter = await createTypesetter(pdf, collectStrings(content));
  const [width, height] = PAPER_SIZES[document.paperSize ?? defaultPaperSize(locale)];
  layOut(new Canvas(pdf, typesetter, width, height), content);
  return pdf.save();
}

function defaultPaperSize(locale: string): 'a4' | 'letter' {
  const region = new Intl.Locale(locale).maximize().region;
  return region !== undefined && LETTER_REGIONS.has(region) ? 'letter' : 'a4';
}

/** Every text of the invoice, formatted, before anything is placed on a page. */
type InvoiceContent = {
  /** "Invoice" or "Receipt". */
  title: string;
  number: string;
  meta: [label: string, value: string][];
  seller: Line[];
  buyer: Line[];
  headline: string;
  hasTaxColumn: boolean;
  items: { label: string; tax: string; amount: string }[];
  totals: { label: string; value: string; emphasis: boolean }[];
};

function describeInvoice(document: InvoiceDocument, locale: string): InvoiceContent {
  const title = document.kind === 'receipt' ? 'Receipt' : 'Invoice';
  const money = (amount: number) => formatMoney(amount, document.currency, locale);
  // Calendar days of the seller's time zone (given, never the worker's), as its emails and
  // dashboard show them.
  const dates = {
    format: (date: Date) => formatDay(date, { locale, timeZone: document.timeZone, style: 'long' }),
  };
  const { seller, buyer, paidAt } = document;
  const refunded = document.refundedAmount ?? 0;

  const meta: [string, string][] = [
    [`${title} number`, document.number],
    ['Date of issue', dates.format(document.issuedAt)],
  ];
  if (paidAt) meta.push(['Date paid', dates.format(paidAt)]);
  meta.push(['Order number', document.orderNumber]);

  const sellerLines: Line[] = [
    { text: seller.name, face: 'bold' },
    ...addressLines(seller.address, locale),
    ...optionalLine(seller.email),
    ...optionalLine(seller.website),
  ];
  const buyerLines: Line[] = [
    ...(buyer.name?.trim() ? [{ text: buyer.name, face: 'bold' as const }] : []),
    ...addressLines(buyer.address, locale),
    { text: buyer.email, face: buyer.name?.trim() ? 'regular' : 'bold' },
    ...optionalLine(buyer.taxId === null ? null : `Tax ID ${buyer.taxId}`),
  ];

  const totals: InvoiceContent['totals'] = [
    { label: 'Subtotal', value: money(document.subtotalAmount), emphasis: false },
  ];
  if (document.discount) {
    totals.push({
      label: `Discount (${document.discount.label})`,
      value: money(-document.discount.amount),
      emphasis: false,
    });
  }
  totals.push({ label: 'Tax', value: money(document.taxAmount), emphasis: false });
  totals.push({ label: 'Total', value: money(document.totalAmount), emphasis: true });
  if (paidAt) {
    totals.push({ label: 'Amount paid', value: money(document.totalAmount), emphasis: false });
    if (refunded > 0) totals.push({ label: 'Refunded', value: money(-refunded), emphasis: false });
  } else {
    totals.push({ label: 'Amount due', value: money(document.totalAmount), emphasis: true });
  }

  return {
    title,
    number: document.number,
    meta,
    seller: sellerLines,
    buyer: buyerLines,
    headline: paidAt
      ? `${money(document.totalAmount)} paid on ${dates.format(paidAt)}`
      : `${money(document.totalAmount)} due`,
    hasTaxColumn: document.items.some((item) => item.taxAmount !== 0),
    items: document.items.map((item) => ({
      label: item.label,
      tax: money(item.taxAmount),
      amount: money(item.amount),
    })),
    totals,
  };
}

function addressLines(address: InvoiceDocument['buyer']['address'], locale: string): Line[] {
  return address ? formatAddressLines(address, locale).map((text) => ({ text, face: 'regular' })) : [];
}

function optionalLine(text: string | null): Line[] {
  return text?.trim() ? [{ text, face: 'regular' }] : [];
}

function collectStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(collectStrings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(collectStrings);
  return [];
}

// ---------------------------------------------------------------------------------------------
// Fonts

type Typesetter = { style(text: string, face: Face): Styled };

const RIGHT_TO_LEFT =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;

const requireFromHere = createRequire(import.meta.url);
let unicodeFontFiles: Promise<Record<Face, Uint8Array>> | undefined;

function loadUnicodeFontFiles(): Promise<Record<Face, Uint8Array>> {
  unicodeFontFiles ??= Promise.all([
    readFile(requireFromHere.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    readFile(requireFromHere.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  ]).then(
    ([regular, bold]) => ({ regular, bold }),
    (error: unknown) => {
      unicodeFontFiles = undefined;
      throw error;
    },
  );
  return unicodeFontFiles;
}

/** One line of plain text: no control or invisible formatting characters, composed accents. */
function clean(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\p{Cf}/gu, '');
}

/** `text` with each character outside `characters` replaced by its unaccented letter, or else "?". */
function substitute(text: string, characters: ReadonlySet<number>): string {
  const drawable = (character: string) =>
    characters.has(character.codePointAt(0) ?? -1) && !RIGHT_TO_LEFT.test(character);
  return Array.from(text, (character) => {
    if (drawable(character)) return character;
    const base = Array.from(character.normalize('NFKD').replace(/\p{M}/gu, ''));
    return base.length > 0 && base.every(drawable) ? base.join('') : '?';
  }).join('');
}

function isDrawable(text: string, characters: ReadonlySet<number>): boolean {
  return Array.from(text).every((character) => characters.has(character.codePointAt(0) ?? -1));
}

async function createTypesetter(pdf: PDFDocument, texts: string[]): Promise<Typesetter> {
  const standard: Record<Face, PDFFont> = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  const standardCharacters = new Set(standard.regular.getCharacterSet());
  const standardStyle = (text: string, face: Face): Styled => ({
    text: substitute(text, standardCharacters),
    font: standard[face],
  });

  if (texts.every((text) => isDrawable(clean(text), standardCharacters))) {
    return { style: (text, face) => standardStyle(clean(text), face) };
  }

  const files = await loadUnicodeFontFiles();
  // Only here: fontkit unpacks its tables when loaded, which costs every invoice that needs none.
  const { default: fontkit } = await import('@pdf-lib/fontkit');
  pdf.registerFontkit(fontkit);
  const unicode: Record<Face, PDFFont> = {
    regular: await pdf.embedFont(files.regular, { subset: true }),
    bold: await pdf.embedFont(files.bold, { subset: true }),
  };
  const unicodeCharacters: Record<Face, ReadonlySet<number>> = {
    regular: new Set(unicode.regular.getCharacterSet()),
    bold: new Set(unicode.bold.getCharacterSet()),
  };
  return {
    // A whole text is set in one font: Helvetica and DejaVu side by side inside a name would
    // look like a misprint.
    style(text, face) {
      const cleaned = clean(text);
      if (isDrawable(cleaned, standardCharacters)) return standardStyle(cleaned, face);
      return { text: substitute(cleaned, unicodeCharacters[face]), font: unicode[face] };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Layout

type TextOptions = { size: number; face?: Face; color?: RGB; align?: 'left' | 'right' };

function lineHeight(size: number): number {
  return size * LEADING;
}

/** Pages, the current one, and the position of the next line's top edge on it. */
class Canvas {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  y = 0;
  readonly left = MARGIN;
  readonly right: number;

  constructor(
    private readonly pdf: PDFDocument,
    readonly typesetter: Typesetter,
    readonly width: number,
    private readonly height: number,
  ) {
    this.right = width - MARGIN;
    this.addPage();
  }

  get contentWidth(): number {
    return this.right - this.left;
  }

  addPage(): void {
    this.page = this.pdf.addPage([this.width, this.height]);
    this.pages.push(this.page);
    this.y = this.height - MARGIN;
  }

  fits(height: number): boolean {
    return this.y - height >= CONTENT_BOTTOM;
  }

  style(text: string, face: Face = 'regular'): Styled {
    return this.typesetter.style(text, face);
  }

  measure(text: string, options: TextOptions): number {
    const styled = this.style(text, options.face);
    return styled.font.widthOfTextAtSize(styled.text, options.size);
  }

  /** Draws one line of text whose box starts `top` points from the page bottom. */
  text(text: string, x: number, top: number, options: TextOptions, page: PDFPage = this.page): void {
    const styled = this.style(text, options.face);
    const width = styled.font.widthOfTextAtSize(styled.text, options.size);
    page.drawText(styled.text, {
      x: options.align === 'right' ? x - width : x,
      y: top - (lineHeight(options.size) + options.size * 0.5) / 2,
      size: options.size,
      font: styled.font,
      color: options.color ?? INK,
    });
  }

  rule(top: number, from: number, to: number, color: RGB = RULE, thickness = 0.5): void {
    this.page.drawLine({ start: { x: from, y: top }, end: { x: to, y: top }, thickness, color });
  }

  /** `text` broken into lines of at most `width` points, breaking inside words only when a word alone is wider. */
  wrap(text: string, width: number, size: number, maxLines: number, face: Face = 'regular'): string[] {
    const { text: drawn, font } = this.style(text, face);
    const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
    const lines: string[] = [];
    let current = '';
    for (const word of drawn.split(' ').filter(Boolean)) {
      const candidate = current ? `${current} ${word}` : word;
      if (fits(candidate)) {
        current = candidate;
        continue;
      }
      if (current) lines.push(current);
      current = word;
      while (!fits(current)) {
        const characters = Array.from(current);
        let cut = 1;
        while (cut < characters.length && fits(characters.slice(0, cut + 1).join(''))) cut += 1;
        lines.push(characters.slice(0, cut).join(''));
        current = characters.slice(cut).join('');
      }
    }
    if (current) lines.push(current);
    if (lines.length <= maxLines) return lines;
    const kept = lines.slice(0, maxLines);
    let last = Array.from(kept[maxLines - 1] ?? '');
    while (last.length > 0 && !fits(`${last.join('')}…`)) last = last.slice(0, -1);
    kept[maxLines - 1] = `${last.join('')}…`;
    return kept;
  }
}

function layOut(canvas: Canvas, content: InvoiceContent): void {
  drawHeader(canvas, content);
  drawItems(canvas, content);
  drawTotals(canvas, content);
  drawFooters(canvas, content);
}

function drawHeader(canvas: Canvas, content: InvoiceContent): void {
  canvas.text(content.title, canvas.left, canvas.y, { size: SIZE.title, face: 'bold' });
  canvas.y -= lineHeight(SIZE.title) + 10;

  const labelWidth = 96;
  const valueWidth = canvas.contentWidth - labelWidth;
  for (const [label, value] of content.meta) {
    const lines = canvas.wrap(value, valueWidth, SIZE.body, MAX_LINES.field);
    canvas.text(label, canvas.left, canvas.y, { size: SIZE.body, color: MUTED });
    for (const line of lines) {
      canvas.text(line, canvas.left + labelWidth, canvas.y, { size: SIZE.body });
      canvas.y -= lineHeight(SIZE.body);
    }
  }
  canvas.y -= 20;

  const columnWidth = (canvas.contentWidth - COLUMN_GAP) / 2;
  const columns: [string, Line[], number][] = [
    ['From', content.seller, canvas.left],
    ['Bill to', content.buyer, canvas.left + columnWidth + COLUMN_GAP],
  ];
  const top = canvas.y;
  let bottom = top;
  for (const [heading, lines, x] of columns) {
    let y = top;
    canvas.text(heading, x, y, { size: SIZE.label, face: 'bold', color: MUTED });
    y -= lineHeight(SIZE.label) + 2;
    for (const line of lines) {
      const size = line.face === 'bold' ? SIZE.name : SIZE.body;
      for (const part of canvas.wrap(line.text, columnWidth, size, MAX_LINES.field, line.face)) {
        canvas.text(part, x, y, { size, face: line.face });
        y -= lineHeight(size);
      }
    }
    bottom = Math.min(bottom, y);
  }
  canvas.y = bottom - 22;

  canvas.text(content.headline, canvas.left, canvas.y, { size: SIZE.headline, face: 'bold' });
  canvas.y -= lineHeight(SIZE.headline) + 16;
}

/** Right edges of the tax and amount columns, and the width left for the description. */
function itemColumns(canvas: Canvas, content: InvoiceContent) {
  const widest = (texts: string[], header: string) =>
    Math.max(
      canvas.measure(header, { size: SIZE.label, face: 'bold' }),
      ...texts.map((text) => canvas.measure(text, { size: SIZE.body })),
    );
  const amountWidth = Math.max(64, widest([...content.items.map((item) => item.amount)], 'Amount'));
  const taxWidth = content.hasTaxColumn
    ? Math.max(
        56,
        widest(
          content.items.map((item) => item.tax),
          'Tax',
        ),
      )
    : 0;
  const amountRight = canvas.right;
  const taxRight = amountRight - amountWidth - COLUMN_GAP;
  const descriptionWidth =
    canvas.contentWidth - amountWidth - COLUMN_GAP - (content.hasTaxColumn ? taxWidth + COLUMN_GAP : 0);
  return { amountRight, taxRight, descriptionWidth };
}

function drawItemsHeader(
  canvas: Canvas,
  content: InvoiceContent,
  columns: ReturnType<typeof itemColumns>,
): void {
  const options = { size: SIZE.label, face: 'bold', color: MUTED } as const;
  canvas.text('Description', canvas.left, canvas.y, options);
  if (content.hasTaxColumn) canvas.text('Tax', columns.taxRight, canvas.y, { ...options, align: 'right' });
  canvas.text('Amount', columns.amountRight, canvas.y, { ...options, align: 'right' });
  canvas.y -= lineHeight(SIZE.label) + 4;
  canvas.rule(canvas.y, canvas.left, canvas.right, STRONG_RULE, 0.75);
}

function continuePage(canvas: Canvas, content: InvoiceContent): void {
  canvas.addPage();
  canvas.text(`${content.title} ${content.number} (continued)`, canvas.left, canvas.y, {
    size: SIZE.name,
    face: 'bold',
  });
  canvas.y -= lineHeight(SIZE.name) + 16;
}

function drawItems(canvas: Canvas, content: InvoiceContent): void {
  const columns = itemColumns(canvas, content);
  drawItemsHeader(canvas, content, columns);
  for (const item of content.items) {
    const lines = canvas.wrap(item.label, columns.descriptionWidth, SIZE.body, MAX_LINES.item);
    const rowHeight = CELL_PADDING * 2 + lines.length * lineHeight(SIZE.body);
    if (!canvas.fits(rowHeight)) {
      continuePage(canvas, content);
      drawItemsHeader(canvas, content, columns);
    }
    // Drawn in reading order, which is the order text extraction and screen readers follow.
    const top = canvas.y - CELL_PADDING;
    canvas.text(lines[0] ?? '', canvas.left, top, { size: SIZE.body });
    if (content.hasTaxColumn)
      canvas.text(item.tax, columns.taxRight, top, { size: SIZE.body, align: 'right' });
    canvas.text(item.amount, columns.amountRight, top, { size: SIZE.body, align: 'right' });
    lines.slice(1).forEach((line, index) => {
      canvas.text(line, canvas.left, top - (index + 1) * lineHeight(SIZE.body), { size: SIZE.body });
    });
    canvas.y -= rowHeight;
    canvas.rule(canvas.y, canvas.left, canvas.right);
  }
}

function drawTotals(canvas: Canvas, content: InvoiceContent): void {
  const left = canvas.left + canvas.contentWidth * 0.45;
  const valueWidth = Math.max(
    ...content.totals.map((row) => canvas.measure(row.value, { size: SIZE.body, face: 'bold' })),
  );
  const labelWidth = canvas.right - left - valueWidth - COLUMN_GAP;
  const rows = content.totals.map((row) => ({
    ...row,
    lines: canvas.wrap(
      row.label,
      labelWidth,
      SIZE.body,
      MAX_LINES.totalLabel,
      row.emphasis ? 'bold' : 'regular',
    ),
  }));
  const rowHeight = (lines: string[]) => lines.length * lineHeight(SIZE.body) + 6;
  const blockHeight = 10 + rows.reduce((sum, row) => sum + rowHeight(row.lines) + (row.emphasis ? 4 : 0), 0);
  if (!canvas.fits(blockHeight)) continuePage(canvas, content);

  canvas.y -= 10;
  for (const row of rows) {
    const face: Face = row.emphasis ? 'bold' : 'regular';
    if (row.emphasis) {
      canvas.rule(canvas.y, left, canvas.right, STRONG_RULE, 0.75);
      canvas.y -= 4;
    }
    canvas.text(row.lines[0] ?? '', left, canvas.y, { size: SIZE.body, face });
    canvas.text(row.value, canvas.right, canvas.y, { size: SIZE.body, face, align: 'right' });
    row.lines.slice(1).forEach((line, index) => {
      canvas.text(line, left, canvas.y - (index + 1) * lineHeight(SIZE.body), { size: SIZE.body, face });
    });
    canvas.y -= rowHeight(row.lines);
  }
}

function drawFooters(canvas: Canvas, content: InvoiceContent): void {
  const options = { size: SIZE.footer, color: MUTED } as const;
  const summary = canvas.wrap(
    `${content.number} · ${content.headline}`,
    canvas.contentWidth * 0.7,
    SIZE.footer,
    1,
  );
  for (const [index, page] of canvas.pages.entries()) {
    const top = FOOTER_BASELINE + (lineHeight(SIZE.footer) + SIZE.footer * 0.5) / 2;
    canvas.text(summary[0] ?? '', canvas.left, top, options, page);
    canvas.text(
      `Page ${index + 1} of ${canvas.pages.length}`,
      canvas.right,
      top,
      { ...options, align: 'right' },
      page,
    );
  }
}
