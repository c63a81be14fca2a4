-- DropIndex
DROP INDEX "checkouts_organization_id_created_at_idx";

-- CreateIndex
CREATE INDEX "checkouts_organization_id_created_at_status_idx" ON "checkouts"("organization_id", "created_at", "status");

