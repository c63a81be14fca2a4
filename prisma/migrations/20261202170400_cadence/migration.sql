-- Every-N intervals (recurring_interval_count) on products and subscriptions, and when a
-- subscription went past due.
ALTER TABLE "products" ADD COLUMN "recurring_interval_count" INTEGER;
UPDATE "products" SET "recurring_interval_count" = 1 WHERE "recurring_interval" IS NOT NULL;

ALTER TABLE "subscriptions" ADD COLUMN "recurring_interval_count" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "subscriptions" ADD COLUMN "past_due_at" TIMESTAMPTZ(3);
UPDATE "subscriptions" SET "past_due_at" = COALESCE("modified_at", "created_at") WHERE "status" = 'past_due';
