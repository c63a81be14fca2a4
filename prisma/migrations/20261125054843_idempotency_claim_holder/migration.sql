-- AlterTable
ALTER TABLE "idempotency_keys" ADD COLUMN     "holder_lock" INTEGER;

