-- DropIndex
DROP INDEX "outbox_events_dispatched_at_created_at_idx";

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "sequence" BIGSERIAL NOT NULL;

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "request_key" TEXT,
ADD COLUMN     "subscription_id" UUID;

-- AlterTable
ALTER TABLE "sandbox_payments" ADD COLUMN     "off_session" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "setup_future_usage" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "checkout_id" UUID,
    "discount_id" UUID,
    "discount_first_period_start" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "recurring_interval" TEXT NOT NULL,
    "billing_anchor" TIMESTAMPTZ(3) NOT NULL,
    "current_period_index" INTEGER NOT NULL DEFAULT 0,
    "period_index_base" INTEGER NOT NULL DEFAULT 0,
    "current_period_start" TIMESTAMPTZ(3) NOT NULL,
    "current_period_end" TIMESTAMPTZ(3) NOT NULL,
    "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false,
    "canceled_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "ends_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "customer_cancellation_reason" TEXT,
    "customer_cancellation_comment" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "custom_field_data" JSONB NOT NULL DEFAULT '{}',
    "payment_processor" TEXT NOT NULL,
    "processor_customer_id" TEXT,
    "payment_method_id" TEXT,
    "payment_method" JSONB,
    "period_billed" INTEGER NOT NULL DEFAULT 0,
    "period_used" INTEGER NOT NULL DEFAULT 0,
    "period_ledger_since" TIMESTAMPTZ(3) NOT NULL,
    "failed_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_prices" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "subscription_id" UUID NOT NULL,
    "product_price_id" UUID NOT NULL,
    "amount" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_pending_items" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "subscription_id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "product_price_id" UUID,
    "order_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_pending_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_checkout_id_key" ON "subscriptions"("checkout_id");

-- CreateIndex
CREATE INDEX "subscriptions_organization_id_created_at_idx" ON "subscriptions"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "subscriptions_customer_id_idx" ON "subscriptions"("customer_id");

-- CreateIndex
CREATE INDEX "subscriptions_status_current_period_end_idx" ON "subscriptions"("status", "current_period_end");

-- CreateIndex
CREATE INDEX "subscription_prices_subscription_id_idx" ON "subscription_prices"("subscription_id");

-- CreateIndex
CREATE INDEX "subscription_pending_items_subscription_id_order_id_idx" ON "subscription_pending_items"("subscription_id", "order_id");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_events_sequence_key" ON "outbox_events"("sequence");

-- CreateIndex
CREATE INDEX "outbox_events_dispatched_at_sequence_idx" ON "outbox_events"("dispatched_at", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "orders_request_key_key" ON "orders"("request_key");

-- CreateIndex
CREATE INDEX "orders_subscription_id_created_at_idx" ON "orders"("subscription_id", "created_at");

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_discount_id_fkey" FOREIGN KEY ("discount_id") REFERENCES "discounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_prices" ADD CONSTRAINT "subscription_prices_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_prices" ADD CONSTRAINT "subscription_prices_product_price_id_fkey" FOREIGN KEY ("product_price_id") REFERENCES "product_prices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_pending_items" ADD CONSTRAINT "subscription_pending_items_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_pending_items" ADD CONSTRAINT "subscription_pending_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

