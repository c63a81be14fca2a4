-- Seat-based prices (docs/prices.md): a price's tiers and seat bounds as one document, read and
-- checked by domain/prices/tiers.ts, and null for every other price type.
-- AlterTable
ALTER TABLE "product_prices" ADD COLUMN     "tier_table" JSONB;
