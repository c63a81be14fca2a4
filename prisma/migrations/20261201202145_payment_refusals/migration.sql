-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "is_payment_refused" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "order_payment_attempts" ADD COLUMN     "is_refused" BOOLEAN NOT NULL DEFAULT false;

