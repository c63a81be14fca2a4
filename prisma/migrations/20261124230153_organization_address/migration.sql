-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "address" JSONB;

