-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "subscription_proration_behavior" AS ENUM ('invoice', 'prorate');

-- CreateTable
CREATE TABLE "organization" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "logo" TEXT,
    "metadata" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),
    "email" TEXT,
    "website" TEXT,
    "socials" JSONB NOT NULL DEFAULT '[]',
    "details_submitted_at" TIMESTAMPTZ(3),
    "issue_funding_enabled" BOOLEAN NOT NULL DEFAULT false,
    "usage_based_billing_enabled" BOOLEAN NOT NULL DEFAULT false,
    "allow_multiple_subscriptions" BOOLEAN NOT NULL DEFAULT false,
    "allow_customer_updates" BOOLEAN NOT NULL DEFAULT true,
    "proration_behavior" "subscription_proration_behavior" NOT NULL DEFAULT 'prorate',

    CONSTRAINT "organization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organization_access_token" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "comment" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "expires_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "organization_access_token_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "organization_slug_key" ON "organization"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "organization_access_token_token_hash_key" ON "organization_access_token"("token_hash");

-- CreateIndex
CREATE INDEX "organization_access_token_organization_id_idx" ON "organization_access_token"("organization_id");

-- AddForeignKey
ALTER TABLE "organization_access_token" ADD CONSTRAINT "organization_access_token_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

