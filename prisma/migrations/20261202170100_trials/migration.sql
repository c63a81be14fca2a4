-- Trials (issue 34): a product's trial, overridden by checkout links and checkouts, a subscription's
-- trial dates, the organization's trial abuse prevention and the trials given so far.
ALTER TABLE "organizations" ADD COLUMN "prevent_trial_abuse" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "products" ADD COLUMN "trial_interval" TEXT,
ADD COLUMN "trial_interval_count" INTEGER;

ALTER TABLE "checkout_links" ADD COLUMN "trial_interval" TEXT,
ADD COLUMN "trial_interval_count" INTEGER;

ALTER TABLE "checkouts" ADD COLUMN "trial_interval" TEXT,
ADD COLUMN "trial_interval_count" INTEGER,
ADD COLUMN "allow_trial" BOOLEAN NOT NULL DEFAULT true;

ALTER TABLE "subscriptions" ADD COLUMN "trial_start" TIMESTAMPTZ(3),
ADD COLUMN "trial_end" TIMESTAMPTZ(3);

CREATE TABLE "trial_redemptions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_email" TEXT NOT NULL,
    "customer_id" UUID NOT NULL,
    "payment_method_fingerprint" TEXT,
    "checkout_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trial_redemptions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "trial_redemptions_checkout_id_key" ON "trial_redemptions"("checkout_id");
CREATE INDEX "trial_redemptions_organization_id_customer_email_idx" ON "trial_redemptions"("organization_id", "customer_email");
CREATE INDEX "trial_redemptions_organization_id_payment_method_fingerprin_idx" ON "trial_redemptions"("organization_id", "payment_method_fingerprint");
