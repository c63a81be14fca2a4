-- Seat changes: the portal setting that lets buyers change their seats, and the seats a change
-- scheduled for the period's end gives the plan
-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "customer_portal_update_seats" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "pending_seats" INTEGER;

