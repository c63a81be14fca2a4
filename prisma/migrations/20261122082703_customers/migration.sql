-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "external_id" TEXT,
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT,
    "billing_address" JSONB,
    "tax_id" JSONB,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customers_organization_id_created_at_idx" ON "customers"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Email and external id are unique among the live customers of an organization: the address of a deleted customer
-- may return as a new customer. Prisma cannot express partial indexes, hence written by hand.
CREATE UNIQUE INDEX "customers_organization_id_email_live_key" ON "customers"("organization_id", "email") WHERE "deleted_at" IS NULL;
CREATE UNIQUE INDEX "customers_organization_id_external_id_live_key" ON "customers"("organization_id", "external_id") WHERE "deleted_at" IS NULL AND "external_id" IS NOT NULL;
