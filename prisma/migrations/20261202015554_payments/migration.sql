-- CreateTable
CREATE TABLE "payments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "request_key" TEXT NOT NULL,
    "processor" TEXT NOT NULL,
    "processor_payment_id" TEXT,
    "status" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "method" TEXT NOT NULL DEFAULT 'card',
    "card_brand" TEXT,
    "card_last4" TEXT,
    "decline_reason" TEXT,
    "decline_message" TEXT,
    "checkout_id" UUID,
    "order_id" UUID,
    "customer_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payments_request_key_key" ON "payments"("request_key");

-- CreateIndex
CREATE INDEX "payments_organization_id_created_at_idx" ON "payments"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "payments_processor_payment_id_idx" ON "payments"("processor_payment_id");

-- CreateIndex
CREATE INDEX "payments_order_id_idx" ON "payments"("order_id");

-- CreateIndex
CREATE INDEX "payments_checkout_id_idx" ON "payments"("checkout_id");

-- CreateIndex
CREATE INDEX "payments_customer_id_idx" ON "payments"("customer_id");

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- Backfill: the tries recorded before this table, a subscription order's attempts and the payment of each paid checkout order
INSERT INTO "payments" ("organization_id", "request_key", "processor", "processor_payment_id", "status", "amount", "currency", "card_brand", "card_last4", "decline_reason", "decline_message", "order_id", "customer_id", "created_at")
SELECT o."organization_id", 'order:' || a."order_id" || ':attempt:' || a."attempt", COALESCE(s."payment_processor", 'stripe'), a."payment_id", a."status", o."total_amount", o."currency", s."payment_method"->>'brand', s."payment_method"->>'last4', a."decline_code", a."message", o."id", o."customer_id", a."created_at"
FROM "order_payment_attempts" a JOIN "orders" o ON o."id" = a."order_id" LEFT JOIN "subscriptions" s ON s."id" = o."subscription_id"
ON CONFLICT ("request_key") DO NOTHING;

INSERT INTO "payments" ("organization_id", "request_key", "processor", "processor_payment_id", "status", "amount", "currency", "checkout_id", "order_id", "customer_id", "created_at")
SELECT o."organization_id", 'checkout:' || c."id" || ':attempt:' || c."payment_attempt", CASE WHEN o."payment_id" LIKE 'pi\_sbx\_%' THEN 'sandbox' ELSE 'stripe' END, o."payment_id", 'succeeded', o."total_amount", o."currency", c."id", o."id", o."customer_id", o."created_at"
FROM "orders" o JOIN "checkouts" c ON c."id" = o."checkout_id"
WHERE o."payment_id" IS NOT NULL AND o."total_amount" > 0
ON CONFLICT ("request_key") DO NOTHING;
