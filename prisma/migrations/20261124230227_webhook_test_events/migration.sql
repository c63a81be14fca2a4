-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "endpoint_id" UUID;

-- AddForeignKey
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Deleting an endpoint cascades to its test events: found through this index, not a scan of the
-- whole outbox. Partial, because only test events name an endpoint.
CREATE INDEX "outbox_events_endpoint_id_idx" ON "outbox_events"("endpoint_id") WHERE "endpoint_id" IS NOT NULL;
