import { z } from 'zod';
import { textSchema } from '../platform/schemas.js';
import { invalidSubdivisionMessage, subdivisionsOf } from './rules.js';

// Billing addresses on the wire (Polar's Address and AddressInput, spec §3 Customer).

export const addressSchema = z.object({
  line1: z.string().nullable().optional(),
  line2: z.string().nullable().optional(),
  postal_code: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  country: z.string(),
});

/**
 * An address being filled in: trimmed, country upper-cased, and a US or Canadian state, when
 * given, one of the country's. Which fields must be present is the caller's rule (a checkout asks
 * through `customer_billing_address_fields` and checks at confirmation, as Polar does).
 */
export const addressDraftSchema = z
  .strictObject({
    line1: textSchema({ max: 255, trim: true }).nullable().optional(),
    line2: textSchema({ max: 255, trim: true }).nullable().optional(),
    postal_code: textSchema({ max: 32, trim: true }).nullable().optional(),
    city: textSchema({ max: 255, trim: true }).nullable().optional(),
    state: textSchema({ max: 64, trim: true }).nullable().optional(),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'Expected an ISO 3166-1 alpha-2 country code.')
      .transform((country) => country.toUpperCase()),
  })
  .superRefine((address, context) => {
    const known = subdivisionsOf(address.country);
    if (!known || !address.state) return;
    const code = address.state.toUpperCase().replace(new RegExp(`^${address.country}-`), '');
    if (!known.some((subdivision) => subdivision.code === code)) {
      context.addIssue({
        code: 'custom',
        path: ['state'],
        message: invalidSubdivisionMessage(address.country),
      });
    }
  });

/** A complete address as a customer's record keeps it: US and Canadian addresses need a state. */
export const addressInputSchema = addressDraftSchema.superRefine((address, context) => {
  if (subdivisionsOf(address.country) && !address.state) {
    context.addIssue({
      code: 'custom',
      path: ['state'],
      message: `A state is required for ${address.country}.`,
    });
  }
});
