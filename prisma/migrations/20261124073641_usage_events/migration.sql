-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "customer_id" UUID,
    "external_customer_id" TEXT,
    "external_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "events_organization_id_name_timestamp_idx" ON "events"("organization_id", "name", "timestamp");

-- CreateIndex
CREATE INDEX "events_organization_id_timestamp_idx" ON "events"("organization_id", "timestamp");

-- CreateIndex
CREATE INDEX "events_customer_id_timestamp_idx" ON "events"("customer_id", "timestamp");

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Partial indexes (not expressible in schema.prisma): the external ids of events are unique per
-- organization where set, and only events no customer had yet are looked up by external customer id.
CREATE UNIQUE INDEX "events_organization_id_external_id_key" ON "events"("organization_id", "external_id") WHERE "external_id" IS NOT NULL;
CREATE INDEX "events_unattached_external_customer_id_idx" ON "events"("organization_id", "external_customer_id", "timestamp") WHERE "customer_id" IS NULL;
