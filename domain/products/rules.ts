// The prices a product may have together (Polar's rule as of @polar-sh/sdk@0.33.2, spec §3 Price).
// What each price type allows on its own is its module's (domain/prices/).
import { priceType } from '../prices/registry.js';
import type { RecurringInterval } from '../prices/schemas.js';
import type { PriceIssue } from '../prices/strategy.js';

/**
 * At least one price, at most one price billed up front (free, fixed or custom: the "static"
 * price) beside any number billed by usage, and those only on recurring products. `loc` indexes
 * into the given list.
 */
export function priceSetIssues(
  prices: readonly { amount_type: string }[],
  recurringInterval: RecurringInterval | null,
): PriceIssue[] {
  if (prices.length === 0) return [{ loc: [], message: 'A product needs at least one price.' }];
  const issues: PriceIssue[] = [];
  let staticSeen = false;
  for (const [index, price] of prices.entries()) {
    if (priceType(price.amount_type).billing === 'in_advance') {
      if (staticSeen) {
        issues.push({
          loc: [index],
          message: 'A product may have only one static price (free, fixed or custom).',
        });
      }
      staticSeen = true;
    } else if (recurringInterval === null) {
      issues.push({
        loc: [index],
        message: 'Metered prices are not supported on one-time purchase products.',
      });
    }
  }
  return issues;
}
