-- CreateTable
CREATE TABLE "subscription_meters" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "subscription_id" UUID NOT NULL,
    "meter_id" UUID NOT NULL,
    "consumed_units" DECIMAL(65,30) NOT NULL,
    "credited_units" DECIMAL(65,30) NOT NULL,
    "amount" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "subscription_meters_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscription_meters_meter_id_idx" ON "subscription_meters"("meter_id");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_meters_subscription_id_meter_id_key" ON "subscription_meters"("subscription_id", "meter_id");

-- AddForeignKey
ALTER TABLE "subscription_meters" ADD CONSTRAINT "subscription_meters_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_meters" ADD CONSTRAINT "subscription_meters_meter_id_fkey" FOREIGN KEY ("meter_id") REFERENCES "meters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

