-- CreateTable
CREATE TABLE "checkouts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "client_secret" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "success_url" TEXT,
    "embed_origin" TEXT,
    "checkout_link_id" UUID,
    "product_ids" UUID[],
    "product_id" UUID NOT NULL,
    "product_price_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "discount_amount" INTEGER NOT NULL,
    "net_amount" INTEGER NOT NULL,
    "tax_amount" INTEGER,
    "total_amount" INTEGER NOT NULL,
    "tax_reference" TEXT,
    "discount_id" UUID,
    "discount_redeemed" BOOLEAN NOT NULL DEFAULT false,
    "allow_discount_codes" BOOLEAN NOT NULL DEFAULT true,
    "require_billing_address" BOOLEAN NOT NULL DEFAULT false,
    "is_business_customer" BOOLEAN NOT NULL DEFAULT false,
    "customer_id" UUID,
    "customer_name" TEXT,
    "customer_email" TEXT,
    "customer_ip_address" TEXT,
    "customer_billing_name" TEXT,
    "customer_billing_address" JSONB,
    "customer_tax_id" TEXT,
    "customer_external_id" TEXT,
    "customer_metadata" JSONB NOT NULL DEFAULT '{}',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "custom_field_data" JSONB NOT NULL DEFAULT '{}',
    "payment_processor" TEXT NOT NULL DEFAULT 'stripe',
    "confirmation_token_id" TEXT,
    "payment_attempt" INTEGER NOT NULL DEFAULT 0,
    "payment_id" TEXT,
    "failure_reason" TEXT,
    "customer_session_token_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "subtotal_amount" INTEGER NOT NULL,
    "discount_amount" INTEGER NOT NULL,
    "net_amount" INTEGER NOT NULL,
    "tax_amount" INTEGER NOT NULL,
    "total_amount" INTEGER NOT NULL,
    "refunded_amount" INTEGER NOT NULL DEFAULT 0,
    "refunded_tax_amount" INTEGER NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL,
    "billing_reason" TEXT NOT NULL,
    "billing_name" TEXT,
    "billing_address" JSONB,
    "customer_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "discount_id" UUID,
    "checkout_id" UUID,
    "payment_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "custom_field_data" JSONB NOT NULL DEFAULT '{}',
    "invoice_number" TEXT,
    "invoice_path" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_items" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "order_id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "tax_amount" INTEGER NOT NULL,
    "proration" BOOLEAN NOT NULL DEFAULT false,
    "product_price_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "order_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refunds" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "reason" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "tax_amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "comment" TEXT,
    "revoke_benefits" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "processor_refund_id" TEXT,
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_sequences" (
    "organization_id" UUID NOT NULL,
    "last_number" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "invoice_sequences_pkey" PRIMARY KEY ("organization_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_client_secret_key" ON "checkouts"("client_secret");

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_customer_session_token_hash_key" ON "checkouts"("customer_session_token_hash");

-- CreateIndex
CREATE INDEX "checkouts_organization_id_created_at_idx" ON "checkouts"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "checkouts_status_expires_at_idx" ON "checkouts"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "orders_checkout_id_key" ON "orders"("checkout_id");

-- CreateIndex
CREATE INDEX "orders_organization_id_created_at_idx" ON "orders"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "orders_customer_id_idx" ON "orders"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_organization_id_invoice_number_key" ON "orders"("organization_id", "invoice_number");

-- CreateIndex
CREATE INDEX "order_items_order_id_idx" ON "order_items"("order_id");

-- CreateIndex
CREATE INDEX "refunds_organization_id_created_at_idx" ON "refunds"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "refunds_order_id_idx" ON "refunds"("order_id");

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_checkout_link_id_fkey" FOREIGN KEY ("checkout_link_id") REFERENCES "checkout_links"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_product_price_id_fkey" FOREIGN KEY ("product_price_id") REFERENCES "product_prices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_discount_id_fkey" FOREIGN KEY ("discount_id") REFERENCES "discounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_id_fkey" FOREIGN KEY ("discount_id") REFERENCES "discounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_sequences" ADD CONSTRAINT "invoice_sequences_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written (Prisma cannot declare checks): amounts that must never break, whatever the code does.
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded_amount_check" CHECK ("refunded_amount" >= 0 AND "refunded_amount" <= "net_amount" AND "refunded_tax_amount" >= 0 AND "refunded_tax_amount" <= "tax_amount");

ALTER TABLE "discounts" ADD CONSTRAINT "discounts_redemptions_count_check" CHECK ("redemptions_count" >= 0 AND ("max_redemptions" IS NULL OR "redemptions_count" <= "max_redemptions"));

ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_check" CHECK ("amount" > 0 AND "tax_amount" >= 0);
