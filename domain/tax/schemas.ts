// How a price relates to its tax, in Polar's words (`tax_behavior`). Pure.

/** `location`: by the buyer's country; `inclusive`: the price includes tax; `exclusive`: tax on top. */
export const TAX_BEHAVIORS = ['location', 'inclusive', 'exclusive'] as const;
export type TaxBehavior = (typeof TAX_BEHAVIORS)[number];

/** Tollgate's prices never include tax: the calculator adds it on top (domain/tax/calculator.ts). */
export const DEFAULT_TAX_BEHAVIOR: TaxBehavior = 'exclusive';
