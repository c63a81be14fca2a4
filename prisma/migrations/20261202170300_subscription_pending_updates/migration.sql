-- Plan changes at the next period (`proration_behavior: next_period`, Polar's `pending_update`) and
-- the `reset` behaviour, which an organization turns on.
ALTER TYPE "subscription_proration_behavior" ADD VALUE 'next_period';
ALTER TYPE "subscription_proration_behavior" ADD VALUE 'reset';

ALTER TABLE "organizations" ADD COLUMN "reset_proration_behavior_enabled" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "subscriptions"
  ADD COLUMN "pending_update_id" UUID,
  ADD COLUMN "pending_product_id" UUID,
  ADD COLUMN "pending_update_created_at" TIMESTAMPTZ(3),
  ADD COLUMN "pending_update_modified_at" TIMESTAMPTZ(3);
