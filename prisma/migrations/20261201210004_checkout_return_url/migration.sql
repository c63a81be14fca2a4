-- AlterTable
ALTER TABLE "checkout_links" ADD COLUMN     "return_url" TEXT;

-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "return_url" TEXT;

