// Money arithmetic shared by discounts, checkouts and tax. Amounts are integer minor units of one
// currency (cents, or yen for zero-decimal currencies: the arithmetic is the same), never floats.

/** 100% in basis points. */
export const BASIS_POINTS_SCALE = 10_000;

/**
 * `amount × basisPoints / 10 000`, rounded to the nearest minor unit with ties away from zero
 * (half-up for the non-negative amounts money takes here). Polar rounds percentage discounts the
 * same way (`polar_round`: 8.5 → 9), unlike JavaScript's `Math.round` on negatives or banker's
 * rounding. Computed on integers, so 1005 × 10% is exactly 100.5 → 101, with no float error.
 */
export function applyBasisPoints(amount: number, basisPoints: number): number {
  assertMinorUnits(amount, 'amount');
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
    throw new RangeError(`basis points must be a non-negative integer, got ${basisPoints}`);
  }
  // BigInt: amount (≤ 2^53) × basis points can exceed Number's exact integer range.
  const product = BigInt(amount) * BigInt(basisPoints);
  const scale = BigInt(BASIS_POINTS_SCALE);
  const quotient = product / scale;
  const remainder = product % scale;
  return Number(remainder * 2n >= scale ? quotient + 1n : quotient);
}

/** Amounts are non-negative safe integers; anything else is a bug upstream, not buyer input. */
export function assertMinorUnits(amount: number, name: string): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`${name} must be a non-negative integer amount in minor units, got ${amount}`);
  }
}
