-- CreateTable
CREATE TABLE "customer_meters" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "meter_id" UUID NOT NULL,
    "consumed_units" DECIMAL(65,30) NOT NULL,
    "credited_units" DECIMAL(65,30) NOT NULL,
    "balance" DECIMAL(65,30) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "customer_meters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_meter_refreshes" (
    "id" BIGSERIAL NOT NULL,
    "customer_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_meter_refreshes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customer_meters_organization_id_created_at_idx" ON "customer_meters"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "customer_meters_meter_id_idx" ON "customer_meters"("meter_id");

-- CreateIndex
CREATE UNIQUE INDEX "customer_meters_customer_id_meter_id_key" ON "customer_meters"("customer_id", "meter_id");

-- AddForeignKey
ALTER TABLE "customer_meters" ADD CONSTRAINT "customer_meters_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_meters" ADD CONSTRAINT "customer_meters_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_meters" ADD CONSTRAINT "customer_meters_meter_id_fkey" FOREIGN KEY ("meter_id") REFERENCES "meters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

