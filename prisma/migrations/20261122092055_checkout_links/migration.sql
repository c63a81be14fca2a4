-- CreateTable
CREATE TABLE "checkout_links" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "client_secret" TEXT NOT NULL,
    "payment_processor" TEXT NOT NULL DEFAULT 'stripe',
    "label" TEXT,
    "success_url" TEXT,
    "allow_discount_codes" BOOLEAN NOT NULL DEFAULT true,
    "require_billing_address" BOOLEAN NOT NULL DEFAULT false,
    "discount_id" UUID,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "checkout_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "checkout_link_products" (
    "checkout_link_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "order" INTEGER NOT NULL,

    CONSTRAINT "checkout_link_products_pkey" PRIMARY KEY ("checkout_link_id","product_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkout_links_client_secret_key" ON "checkout_links"("client_secret");

-- CreateIndex
CREATE INDEX "checkout_links_organization_id_created_at_idx" ON "checkout_links"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "checkout_link_products_product_id_idx" ON "checkout_link_products"("product_id");

-- CreateIndex
CREATE UNIQUE INDEX "checkout_link_products_checkout_link_id_order_key" ON "checkout_link_products"("checkout_link_id", "order");

-- AddForeignKey
ALTER TABLE "checkout_links" ADD CONSTRAINT "checkout_links_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_links" ADD CONSTRAINT "checkout_links_discount_id_fkey" FOREIGN KEY ("discount_id") REFERENCES "discounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_link_products" ADD CONSTRAINT "checkout_link_products_checkout_link_id_fkey" FOREIGN KEY ("checkout_link_id") REFERENCES "checkout_links"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_link_products" ADD CONSTRAINT "checkout_link_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

