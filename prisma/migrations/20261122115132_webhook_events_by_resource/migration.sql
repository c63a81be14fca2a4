-- CreateIndex
CREATE INDEX "webhook_events_organization_id_endpoint_id_resource_id_stat_idx" ON "webhook_events"("organization_id", "endpoint_id", "resource_id", "status");

