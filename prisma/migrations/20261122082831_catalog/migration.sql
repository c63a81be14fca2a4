-- CreateTable
CREATE TABLE "products" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "recurring_interval" TEXT,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_prices" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "amount_type" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "recurring_interval" TEXT,
    "price_currency" TEXT,
    "price_amount" INTEGER,
    "minimum_amount" INTEGER,
    "maximum_amount" INTEGER,
    "preset_amount" INTEGER,
    "unit_amount" DECIMAL(17,12),
    "cap_amount" INTEGER,
    "meter_id" UUID,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "product_prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "files" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "service" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT,
    "path" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "upload_id" TEXT NOT NULL,
    "upload_parts" JSONB NOT NULL,
    "declared_sha256_base64" TEXT,
    "checksum_sha256_base64" TEXT,
    "checksum_sha256_hex" TEXT,
    "checksum_etag" TEXT,
    "storage_version" TEXT,
    "last_modified_at" TIMESTAMPTZ(3),
    "is_uploaded" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_medias" (
    "product_id" UUID NOT NULL,
    "file_id" UUID NOT NULL,
    "order" INTEGER NOT NULL,

    CONSTRAINT "product_medias_pkey" PRIMARY KEY ("product_id","file_id")
);

-- CreateTable
CREATE TABLE "custom_fields" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "properties" JSONB NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "custom_fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_custom_fields" (
    "product_id" UUID NOT NULL,
    "custom_field_id" UUID NOT NULL,
    "order" INTEGER NOT NULL,
    "required" BOOLEAN NOT NULL,

    CONSTRAINT "product_custom_fields_pkey" PRIMARY KEY ("product_id","custom_field_id")
);

-- CreateTable
CREATE TABLE "meters" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "filter" JSONB NOT NULL,
    "aggregation" JSONB NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "meters_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "products_organization_id_created_at_idx" ON "products"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "products_organization_id_name_idx" ON "products"("organization_id", "name");

-- CreateIndex
CREATE INDEX "product_prices_organization_id_product_id_idx" ON "product_prices"("organization_id", "product_id");

-- CreateIndex
CREATE INDEX "product_prices_product_id_is_archived_created_at_idx" ON "product_prices"("product_id", "is_archived", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "files_path_key" ON "files"("path");

-- CreateIndex
CREATE INDEX "files_organization_id_created_at_idx" ON "files"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "product_medias_file_id_idx" ON "product_medias"("file_id");

-- CreateIndex
CREATE UNIQUE INDEX "product_medias_product_id_order_key" ON "product_medias"("product_id", "order");

-- CreateIndex
CREATE INDEX "custom_fields_organization_id_created_at_idx" ON "custom_fields"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "custom_fields_organization_id_slug_key" ON "custom_fields"("organization_id", "slug");

-- CreateIndex
CREATE INDEX "product_custom_fields_custom_field_id_idx" ON "product_custom_fields"("custom_field_id");

-- CreateIndex
CREATE UNIQUE INDEX "product_custom_fields_product_id_order_key" ON "product_custom_fields"("product_id", "order");

-- CreateIndex
CREATE INDEX "meters_organization_id_created_at_idx" ON "meters"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_prices" ADD CONSTRAINT "product_prices_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_prices" ADD CONSTRAINT "product_prices_meter_id_fkey" FOREIGN KEY ("meter_id") REFERENCES "meters"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_medias" ADD CONSTRAINT "product_medias_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_medias" ADD CONSTRAINT "product_medias_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_custom_fields" ADD CONSTRAINT "product_custom_fields_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_custom_fields" ADD CONSTRAINT "product_custom_fields_custom_field_id_fkey" FOREIGN KEY ("custom_field_id") REFERENCES "custom_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "meters" ADD CONSTRAINT "meters_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
