-- Checkout links locked to a number of seats (Polar's link `seats`)
-- AlterTable
ALTER TABLE "checkout_links" ADD COLUMN     "seats" INTEGER;

