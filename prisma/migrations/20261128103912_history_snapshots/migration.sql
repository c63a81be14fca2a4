-- History is told as it was recorded: an order keeps the name its product had that day, and a
-- subscription the products it has been on.

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "product_name" TEXT;

-- The first order of a purchase or of a plan has one line, named after the product when it was
-- bought. Other orders take the present name of the product, the best there is for them.
UPDATE "orders" o SET "product_name" = COALESCE(
  (SELECT i."label" FROM "order_items" i
   WHERE i."order_id" = o."id" AND o."billing_reason" IN ('purchase', 'subscription_create')
   ORDER BY i."created_at", i."id" LIMIT 1),
  (SELECT p."name" FROM "products" p WHERE p."id" = o."product_id"));

ALTER TABLE "orders" ALTER COLUMN "product_name" SET NOT NULL;

-- CreateTable
CREATE TABLE "subscription_products" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "subscription_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "product_name" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_products_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscription_products_subscription_id_since_idx" ON "subscription_products"("subscription_id", "since");

-- AddForeignKey
ALTER TABLE "subscription_products" ADD CONSTRAINT "subscription_products_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing plans: the product of their first order (what was bought) from their start, then, when
-- they are on another product now, that one from its first order (or the last change of the plan).
INSERT INTO "subscription_products" ("subscription_id", "product_id", "product_name", "since")
SELECT s."id", COALESCE(first."product_id", s."product_id"), COALESCE(first."product_name", p."name"),
       COALESCE(s."started_at", s."created_at")
FROM "subscriptions" s
JOIN "products" p ON p."id" = s."product_id"
LEFT JOIN LATERAL (
  SELECT o."product_id", o."product_name" FROM "orders" o
  WHERE o."subscription_id" = s."id" ORDER BY o."created_at", o."id" LIMIT 1
) first ON true;

INSERT INTO "subscription_products" ("subscription_id", "product_id", "product_name", "since")
SELECT s."id", s."product_id", p."name",
       COALESCE(
         (SELECT min(o."created_at") FROM "orders" o
          WHERE o."subscription_id" = s."id" AND o."product_id" = s."product_id"),
         s."modified_at", s."created_at")
FROM "subscriptions" s
JOIN "products" p ON p."id" = s."product_id"
JOIN "subscription_products" h ON h."subscription_id" = s."id"
WHERE h."product_id" <> s."product_id";
