-- AlterTable
ALTER TABLE "customer_sessions" ADD COLUMN     "return_url" TEXT;

