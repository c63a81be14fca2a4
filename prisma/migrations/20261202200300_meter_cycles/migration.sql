-- Meter cycles of their own (Polar's `meter_interval`): the product's cycle, and where a
-- subscription's current meter cycle began inside its billing period.
ALTER TABLE "products" ADD COLUMN "meter_interval" TEXT;
ALTER TABLE "products" ADD COLUMN "meter_interval_count" INTEGER;
ALTER TABLE "subscriptions" ADD COLUMN "meter_period_start" TIMESTAMPTZ(3);
ALTER TABLE "subscriptions" ADD COLUMN "meter_interval" TEXT;
ALTER TABLE "subscriptions" ADD COLUMN "meter_interval_count" INTEGER;
