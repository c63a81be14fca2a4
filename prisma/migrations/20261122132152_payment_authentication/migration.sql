-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "payment_client_secret" TEXT;

-- AlterTable
ALTER TABLE "sandbox_payments" ADD COLUMN     "client_secret" TEXT;

