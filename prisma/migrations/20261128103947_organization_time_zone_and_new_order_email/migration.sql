-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- AlterTable
ALTER TABLE "members" ADD COLUMN     "new_order_email" BOOLEAN;

