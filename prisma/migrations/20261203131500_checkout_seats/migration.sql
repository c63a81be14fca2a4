-- Seat-based prices at checkout (docs/prices.md): the seats a checkout sells and its own bounds,
-- and the seats its order and subscription were bought for.
-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "max_seats" INTEGER,
ADD COLUMN     "min_seats" INTEGER,
ADD COLUMN     "seats" INTEGER;

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "seats" INTEGER;

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "seats" INTEGER;
