-- Customer seats: the buyer assigns the seats they bought to people, who claim them and hold the benefits
-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "seat_based_pricing_enabled" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "customer_seats" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "subscription_id" UUID,
    "order_id" UUID,
    "status" TEXT NOT NULL,
    "customer_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "invitation_token_hash" TEXT,
    "invitation_token_expires_at" TIMESTAMPTZ(3),
    "claimed_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "seat_metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "customer_seats_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customer_seats_invitation_token_hash_key" ON "customer_seats"("invitation_token_hash");

-- CreateIndex
CREATE INDEX "customer_seats_subscription_id_status_idx" ON "customer_seats"("subscription_id", "status");

-- CreateIndex
CREATE INDEX "customer_seats_order_id_status_idx" ON "customer_seats"("order_id", "status");

-- CreateIndex
CREATE INDEX "customer_seats_customer_id_status_idx" ON "customer_seats"("customer_id", "status");


-- One live (pending or claimed) seat per holder and purchase
CREATE UNIQUE INDEX "customer_seats_live_subscription_holder" ON "customer_seats"("subscription_id", "customer_id") WHERE "status" <> 'revoked' AND "subscription_id" IS NOT NULL;
CREATE UNIQUE INDEX "customer_seats_live_order_holder" ON "customer_seats"("order_id", "customer_id") WHERE "status" <> 'revoked' AND "order_id" IS NOT NULL;
