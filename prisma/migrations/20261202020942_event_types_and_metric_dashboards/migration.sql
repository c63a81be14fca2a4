-- CreateTable
CREATE TABLE "event_types" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "label_property_selector" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "event_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "metric_dashboards" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "metrics" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "metric_dashboards_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "event_types_organization_id_name_key" ON "event_types"("organization_id", "name");

-- CreateIndex
CREATE INDEX "metric_dashboards_organization_id_created_at_idx" ON "metric_dashboards"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "event_types" ADD CONSTRAINT "event_types_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "metric_dashboards" ADD CONSTRAINT "metric_dashboards_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The names of the events ingested before this migration: from now on the first ingestion of a
-- name makes its row (insertEvents).
INSERT INTO "event_types" ("organization_id", "name", "label", "created_at")
SELECT "organization_id", "name", "name", min("timestamp")
FROM "events" WHERE "source" = 'user'
GROUP BY "organization_id", "name";
