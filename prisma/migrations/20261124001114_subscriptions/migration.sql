-- AlterTable
ALTER TABLE "sandbox_payments" ADD COLUMN     "off_session" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "setup_future_usage" BOOLEAN NOT NULL DEFAULT false;

