-- AlterTable
ALTER TABLE "refunds" ADD COLUMN     "request_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "refunds_organization_id_request_key_key" ON "refunds"("organization_id", "request_key");

