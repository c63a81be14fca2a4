-- DropIndex
DROP INDEX "benefit_grants_customer_id_idx";

-- AlterTable
ALTER TABLE "benefit_grants" ADD COLUMN     "cycled_at" TIMESTAMPTZ(3),
ADD COLUMN     "cycles_applied" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cycles_requested" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "desired" TEXT NOT NULL DEFAULT 'granted',
ADD COLUMN     "update_requested" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "benefit_grant_syncs" (
    "id" BIGSERIAL NOT NULL,
    "customer_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "benefit_grant_syncs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "license_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "benefit_id" UUID NOT NULL,
    "grant_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "limit_activations" INTEGER,
    "usage" INTEGER NOT NULL DEFAULT 0,
    "limit_usage" INTEGER,
    "validations" INTEGER NOT NULL DEFAULT 0,
    "last_validated_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "license_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "license_key_activations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "license_key_id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "conditions" JSONB NOT NULL DEFAULT '{}',
    "meta" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "license_key_activations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "downloadables" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "benefit_id" UUID NOT NULL,
    "file_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "downloads" INTEGER NOT NULL DEFAULT 0,
    "last_downloaded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "downloadables_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "license_keys_grant_id_key" ON "license_keys"("grant_id");

-- CreateIndex
CREATE INDEX "license_keys_organization_id_created_at_idx" ON "license_keys"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "license_keys_customer_id_idx" ON "license_keys"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "license_keys_organization_id_key_key" ON "license_keys"("organization_id", "key");

-- CreateIndex
CREATE INDEX "license_key_activations_license_key_id_idx" ON "license_key_activations"("license_key_id");

-- CreateIndex
CREATE UNIQUE INDEX "downloadables_customer_id_benefit_id_file_id_key" ON "downloadables"("customer_id", "benefit_id", "file_id");

-- CreateIndex
CREATE INDEX "benefit_grants_customer_id_benefit_id_idx" ON "benefit_grants"("customer_id", "benefit_id");

-- AddForeignKey
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_benefit_id_fkey" FOREIGN KEY ("benefit_id") REFERENCES "benefits"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "benefit_grants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "license_key_activations" ADD CONSTRAINT "license_key_activations_license_key_id_fkey" FOREIGN KEY ("license_key_id") REFERENCES "license_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "downloadables" ADD CONSTRAINT "downloadables_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "downloadables" ADD CONSTRAINT "downloadables_benefit_id_fkey" FOREIGN KEY ("benefit_id") REFERENCES "benefits"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "downloadables" ADD CONSTRAINT "downloadables_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One grant per (customer, benefit, order) and per (customer, benefit, subscription): a re-grant
-- reuses its row, and the dispatcher's upserts name these indexes.
CREATE UNIQUE INDEX "benefit_grants_order_key" ON "benefit_grants" ("customer_id", "benefit_id", "order_id") WHERE "order_id" IS NOT NULL;
CREATE UNIQUE INDEX "benefit_grants_subscription_key" ON "benefit_grants" ("customer_id", "benefit_id", "subscription_id") WHERE "subscription_id" IS NOT NULL;

-- The grants with work left for their workflow: few at any time, read by the reconciler.
CREATE INDEX "benefit_grants_pending_idx" ON "benefit_grants" ("modified_at")
  WHERE ((desired = 'granted' AND (granted_at IS NULL OR revoked_at IS NOT NULL OR cycles_applied < cycles_requested OR update_requested)) OR (desired = 'revoked' AND revoked_at IS NULL));
