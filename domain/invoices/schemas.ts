import { z } from 'zod';
import { addressSchema } from '../addresses/schemas.js';

function isLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

const minorAmountSchema = z.int();

export const invoiceItemSchema = z.object({
  label: z.string().trim().min(1),
  /** Before discount and tax, as on the order item. Negative for a proration credit. */
  amount: minorAmountSchema,
  taxAmount: minorAmountSchema,
});

/**
 * Everything an invoice shows, in the order's terms: amounts in minor units of `currency` (spec
 * §5), `subtotalAmount` the sum of the items, `totalAmount` = subtotal − discount + tax.
 */
export const invoiceDocumentSchema = z
  .object({
    /** An invoice, or the buyer's receipt of a paid order (same content, its own title and number). */
    kind: z.enum(['invoice', 'receipt']).optional(),
    number: z.string().trim().min(1),
    issuedAt: z.date(),
    currency: z.string().regex(/^[A-Za-z]{3}$/, 'An ISO 4217 currency code is expected.'),
    /** BCP 47 tag for numbers, dates and country names; the labels are English. Default en-US. */
    locale: z.string().refine(isLocale, 'A BCP 47 language tag is expected.').optional(),
    /** IANA name of the seller's time zone, whose calendar days the dates are. Default UTC. */
    timeZone: z.string().optional(),
    /** Default: Letter where the locale's region uses it (US, CA, MX, …), else A4. */
    paperSize: z.enum(['a4', 'letter']).optional(),
    seller: z.object({
      name: z.string().trim().min(1),
      email: z.string().nullable(),
      website: z.string().nullable(),
      address: addressSchema.nullable(),
    }),
    buyer: z.object({
      name: z.string().nullable(),
      email: z.string(),
      /** Polar's order `billing_address`, which may be null. */
      address: addressSchema.nullable(),
      taxId: z.string().nullable(),
    }),
    items: z.array(invoiceItemSchema).min(1),
    subtotalAmount: minorAmountSchema,
    discount: z
      .object({ label: z.string().trim().min(1), amount: minorAmountSchema.nonnegative() })
      .nullable(),
    taxAmount: minorAmountSchema.nonnegative(),
    totalAmount: minorAmountSchema,
    /** The order's number (`orderNumber` of the orders domain), as every page and email writes it. */
    orderNumber: z.string().trim().min(1),
    paidAt: z.date().nullable(),
    refundedAmount: minorAmountSchema.nonnegative().optional(),
  })
  .superRefine((document, ctx) => {
    // An invoice whose lines do not add up is worse than none: refuse it rather than print it.
    const itemsSum = document.items.reduce((sum, item) => sum + item.amount, 0);
    if (itemsSum !== document.subtotalAmount) {
      ctx.addIssue({
        code: 'custom',
        path: ['subtotalAmount'],
        message: `The items add up to ${itemsSum}, not ${document.subtotalAmount}.`,
      });
    }
    const total = document.subtotalAmount - (document.discount?.amount ?? 0) + document.taxAmount;
    if (total !== document.totalAmount) {
      ctx.addIssue({
        code: 'custom',
        path: ['totalAmount'],
        message: `Subtotal − discount + tax is ${total}, not ${document.totalAmount}.`,
      });
    }
  });

export type InvoiceDocument = z.infer<typeof invoiceDocumentSchema>;
export type InvoiceItem = z.infer<typeof invoiceItemSchema>;
