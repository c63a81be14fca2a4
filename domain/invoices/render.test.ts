import { describe, expect, it } from '@jest/globals';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { ZodError } from 'zod';
import { readPdf } from '../../test/pdf.js';
import { renderInvoicePdf } from './render.js';
import type { InvoiceDocument, InvoiceItem } from './schemas.js';

function createInvoiceDocument(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  return {
    number: 'ACME-0042',
    issuedAt: new Date('2026-03-12T09:30:00Z'),
    currency: 'usd',
    seller: {
      name: 'Acme Software Inc.',
      email: 'billing@acme.example',
      website: 'https://acme.example',
      address: {
        line1: '548 Market St',
        line2: 'Suite 100',
        postal_code: '94104',
        city: 'San Francisco',
        state: 'CA',
        country: 'US',
      },
    },
    buyer: {
      name: 'Jane Buyer',
      email: 'jane@buyer.example',
      address: {
        line1: 'Unter den Linden 1',
        line2: null,
        postal_code: '10117',
        city: 'Berlin',
        state: null,
        country: 'DE',
      },
      taxId: 'DE123456789',
    },
    items: [
      { label: 'Pro plan (monthly)', amount: 4900, taxAmount: 837 },
      { label: 'Extra seats', amount: 3000, taxAmount: 513 },
    ],
    subtotalAmount: 7900,
    discount: { label: 'Launch 10%', amount: 790 },
    taxAmount: 1350,
    totalAmount: 8460,
    orderNumber: '0D6F0D44',
    paidAt: new Date('2026-03-12T09:31:00Z'),
    ...overrides,
  };
}

/** A document with these items whose subtotal and total add up, without discount or tax. */
function withItems(items: InvoiceItem[], overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  const subtotal = items.reduce((sum, item) => sum + item.amount, 0);
  return createInvoiceDocument({
    items,
    subtotalAmount: subtotal,
    discount: null,
    taxAmount: 0,
    totalAmount: subtotal,
    ...overrides,
  });
}

async function embeddedFontPrograms(bytes: Uint8Array): Promise<number> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.context
    .enumerateIndirectObjects()
    .filter(([, object]) => object instanceof PDFDict && object.has(PDFName.of('FontFile2'))).length;
}

describe('renderInvoicePdf', () => {
  it('shows seller, buyer, number, dates, every item, discount, tax and totals, formatted', async () => {
    const pages = await readPdf(await renderInvoicePdf(createInvoiceDocument()));

    expect(pages).toHaveLength(1);
    const texts = pages[0]?.texts ?? [];
    for (const expected of [
      'Invoice',
      'ACME-0042',
      'March 12, 2026',
      'Order number',
      '0D6F0D44',
      'Acme Software Inc.',
      '548 Market St',
      'San Francisco, CA 94104',
      'United States',
      'billing@acme.example',
      'https://acme.example',
      'Jane Buyer',
      'Unter den Linden 1',
      '10117 Berlin',
      'Germany',
      'jane@buyer.example',
      'Tax ID DE123456789',
      '$84.60 paid on March 12, 2026',
      'Pro plan (monthly)',
      '$8.37',
      '$49.00',
      'Extra seats',
      '$5.13',
      '$30.00',
      'Subtotal',
      '$79.00',
      'Discount (Launch 10%)',
      '-$7.90',
      'Tax',
      '$13.50',
      'Total',
      '$84.60',
      'Amount paid',
      'Page 1 of 1',
    ]) {
      expect(texts).toContain(expected);
    }
    expect(texts).not.toContain('Refunded');
    // Reading order: each item's label comes before its amounts.
    expect(texts.indexOf('Pro plan (monthly)')).toBeLessThan(texts.indexOf('$49.00'));
  });

  it('shows an unpaid invoice as due and a refund when there was one', async () => {
    const due = (await readPdf(await renderInvoicePdf(createInvoiceDocument({ paidAt: null }))))[0]?.texts;
    expect(due).toContain('$84.60 due');
    expect(due).toContain('Amount due');
    expect(due).not.toContain('Date paid');
    expect(due).not.toContain('Amount paid');

    const refunded = (
      await readPdf(await renderInvoicePdf(createInvoiceDocument({ refundedAmount: 2000 })))
    )[0]?.texts;
    expect(refunded).toContain('Refunded');
    expect(refunded).toContain('-$20.00');
  });

  it('leaves out the tax column when no item is taxed, and whatever the parties did not give', async () => {
    const texts = (
      await readPdf(
        await renderInvoicePdf(
          withItems([{ label: 'Pro plan', amount: 4900, taxAmount: 0 }], {
            seller: { name: 'Acme', email: null, website: null, address: null },
            buyer: { name: null, email: 'jane@buyer.example', address: null, taxId: null },
          }),
        ),
      )
    )[0]?.texts;
    expect(texts).toContain('Amount');
    expect(texts).not.toContain('Tax ID');
    expect(texts?.filter((text) => text === 'Tax')).toEqual(['Tax']); // the totals row only
    expect(texts).toContain('jane@buyer.example');
  });

  it('writes money, dates and countries as the locale does and picks the paper its region uses', async () => {
    const letter = (await readPdf(await renderInvoicePdf(createInvoiceDocument())))[0];
    expect([letter?.width, letter?.height]).toEqual([612, 792]);

    const german = (
      await readPdf(await renderInvoicePdf(createInvoiceDocument({ locale: 'de-DE', currency: 'eur' })))
    )[0];
    expect(german?.width).toBeCloseTo(595.28, 1);
    expect(german?.height).toBeCloseTo(841.89, 1);
    expect(german?.texts).toContain('84,60 € paid on 12. März 2026');
    expect(german?.texts).toContain('-7,90 €');
    expect(german?.texts).toContain('Deutschland');
    expect(german?.texts).toContain('Vereinigte Staaten');

    const yen = (
      await readPdf(await renderInvoicePdf(createInvoiceDocument({ currency: 'jpy', paperSize: 'a4' })))
    )[0];
    expect(yen?.width).toBeCloseTo(595.28, 1);
    expect(yen?.texts).toContain('¥8,460');
  });

  it("dates the invoice by the seller's calendar, not the worker's", async () => {
    const lateEvening = new Date('2026-03-12T23:30:00Z');
    const inTokyo = createInvoiceDocument({
      issuedAt: lateEvening,
      paidAt: lateEvening,
      timeZone: 'Asia/Tokyo',
    });
    const texts = (await readPdf(await renderInvoicePdf(inTokyo)))[0]?.texts;
    expect(texts).toContain('$84.60 paid on March 13, 2026');
    expect(texts).not.toContain('March 12, 2026');
    const inUtc = (await readPdf(await renderInvoicePdf(createInvoiceDocument({ paidAt: lateEvening }))))[0];
    expect(inUtc?.texts).toContain('$84.60 paid on March 12, 2026');
  });

  it('runs many items onto further pages, repeating the column headings', async () => {
    const items = Array.from({ length: 90 }, (_, index) => ({
      label: `Usage line ${index + 1}`,
      amount: 1000 + index,
      taxAmount: 0,
    }));
    const pages = await readPdf(await renderInvoicePdf(withItems(items)));

    expect(pages.length).toBeGreaterThan(2);
    const all = pages.flatMap((page) => page.texts);
    for (const item of items) expect(all.filter((text) => text === item.label)).toHaveLength(1);
    pages.forEach((page, index) => {
      expect(page.texts).toContain(`Page ${index + 1} of ${pages.length}`);
      expect(page.texts).toContain('Description');
      if (index > 0) expect(page.texts).toContain('Invoice ACME-0042 (continued)');
    });
    expect(pages.at(-1)?.texts).toContain('Total');
    expect(pages.slice(0, -1).flatMap((page) => page.texts)).not.toContain('Total');
    // Items keep their order across pages.
    const positions = items.map((item) => all.indexOf(item.label));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('sets text outside WinAnsi in an embedded Unicode font and replaces what no font can draw', async () => {
    const bytes = await renderInvoicePdf(
      withItems(
        [
          { label: 'Ωμέγα support – Привет', amount: 100000, taxAmount: 0 },
          { label: 'Hebrew שלום name', amount: 50000, taxAmount: 0 },
          { label: 'Line\nbreak\u0007 and a bell', amount: 25000, taxAmount: 0 },
        ],
        {
          locale: 'fr-FR',
          currency: 'eur',
          buyer: {
            name: 'Zoë Łukasz 東京',
            email: 'zoe@example.com',
            address: { line1: 'ul. Długa 12', postal_code: '00-238', city: 'Warszawa', country: 'PL' },
            taxId: null,
          },
        },
      ),
    );
    const texts = (await readPdf(bytes))[0]?.texts;

    expect(texts).toContain('Zoë Łukasz ??');
    expect(texts).toContain('ul. Długa 12');
    expect(texts).toContain('Pologne');
    expect(texts).toContain('Ωμέγα support – Привет');
    expect(texts).toContain('Hebrew ???? name');
    expect(texts).toContain('Line break and a bell');
    // fr-FR groups thousands with a narrow no-break space, which WinAnsi lacks.
    expect(texts).toContain('1 750,00 € paid on 12 mars 2026');
    expect(await embeddedFontPrograms(bytes)).toBe(2);
  });

  it('embeds no font when every text is WinAnsi', async () => {
    const bytes = await renderInvoicePdf(
      createInvoiceDocument({ buyer: { ...createInvoiceDocument().buyer, name: 'Zoë Ærø Müller' } }),
    );
    expect((await readPdf(bytes))[0]?.texts).toContain('Zoë Ærø Müller');
    expect(await embeddedFontPrograms(bytes)).toBe(0);
  });

  it('cuts an absurdly long label with an ellipsis instead of running off the page', async () => {
    const label = 'x'.repeat(6000);
    const pages = await readPdf(await renderInvoicePdf(withItems([{ label, amount: 100, taxAmount: 0 }])));

    expect(pages).toHaveLength(1);
    const lines = pages[0]?.texts.filter((text) => /^x+…?$/.test(text)) ?? [];
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toMatch(/…$/);
    expect(lines.join('').length).toBeLessThan(label.length);
  });

  it('refuses a document whose lines do not add up', async () => {
    await expect(renderInvoicePdf(createInvoiceDocument({ subtotalAmount: 7901 }))).rejects.toThrow(ZodError);
    await expect(renderInvoicePdf(createInvoiceDocument({ totalAmount: 8461 }))).rejects.toThrow(ZodError);
    await expect(renderInvoicePdf(withItems([]))).rejects.toThrow(ZodError);
    await expect(renderInvoicePdf(createInvoiceDocument({ orderNumber: ' ' }))).rejects.toThrow(ZodError);
  });
});
