-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "api_version" TEXT NOT NULL DEFAULT '2026-10',
ADD COLUMN     "name" TEXT;

-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "api_version" TEXT NOT NULL DEFAULT '2026-10';

