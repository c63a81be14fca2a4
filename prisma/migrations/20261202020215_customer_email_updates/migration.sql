-- AlterTable
ALTER TABLE "customer_sessions" ADD COLUMN     "return_url" TEXT;

-- CreateTable
CREATE TABLE "customer_email_updates" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_email_updates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customer_email_updates_customer_id_key" ON "customer_email_updates"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "customer_email_updates_token_hash_key" ON "customer_email_updates"("token_hash");

-- AddForeignKey
ALTER TABLE "customer_email_updates" ADD CONSTRAINT "customer_email_updates_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

