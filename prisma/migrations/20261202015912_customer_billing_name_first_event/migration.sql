-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "billing_name" TEXT,
ADD COLUMN     "first_user_event_at" TIMESTAMPTZ(3);


-- Customers who already have events: the earliest of their ingested ones.
UPDATE "customers" AS c
SET "first_user_event_at" = e.first_at
FROM (
    SELECT "customer_id", min("timestamp") AS first_at
    FROM "events"
    WHERE "source" = 'user' AND "customer_id" IS NOT NULL
    GROUP BY "customer_id"
) AS e
WHERE e."customer_id" = c."id";
