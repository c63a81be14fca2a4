-- CreateTable
CREATE TABLE "customer_payment_methods" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "processor" TEXT NOT NULL,
    "processor_customer_id" TEXT NOT NULL,
    "processor_payment_method_id" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'card',
    "brand" TEXT,
    "last4" TEXT,
    "exp_month" INTEGER,
    "exp_year" INTEGER,
    "wallet" TEXT,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "customer_payment_methods_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customer_payment_methods_customer_id_created_at_idx" ON "customer_payment_methods"("customer_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "customer_payment_methods_customer_id_processor_payment_meth_key" ON "customer_payment_methods"("customer_id", "processor_payment_method_id");

-- AddForeignKey
ALTER TABLE "customer_payment_methods" ADD CONSTRAINT "customer_payment_methods_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- A customer has at most one live default card.
CREATE UNIQUE INDEX "customer_payment_methods_default_key" ON "customer_payment_methods"("customer_id") WHERE "is_default" AND "deleted_at" IS NULL;

-- Cards subscriptions already renew on, the newest per customer as the default. Their
-- expiries were never kept, so they list without card details until replaced.
INSERT INTO "customer_payment_methods" ("organization_id", "customer_id", "processor", "processor_customer_id",
  "processor_payment_method_id", "brand", "last4", "is_default", "created_at")
SELECT DISTINCT ON (s."customer_id", s."payment_method_id")
  s."organization_id", s."customer_id", s."payment_processor", s."processor_customer_id", s."payment_method_id",
  s."payment_method"->>'brand', s."payment_method"->>'last4', false, s."created_at"
FROM "subscriptions" s
WHERE s."payment_method_id" IS NOT NULL AND s."processor_customer_id" IS NOT NULL
ORDER BY s."customer_id", s."payment_method_id", s."created_at" DESC;

UPDATE "customer_payment_methods" m SET "is_default" = true
WHERE m."id" IN (SELECT DISTINCT ON ("customer_id") "id" FROM "customer_payment_methods" ORDER BY "customer_id", "created_at" DESC);
