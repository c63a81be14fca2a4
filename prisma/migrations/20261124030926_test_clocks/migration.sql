-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "test_clock_id" UUID;

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "clock_caught_up_to" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "test_clocks" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT,
    "frozen_time" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "test_clocks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "test_clocks_organization_id_created_at_idx" ON "test_clocks"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "customers_test_clock_id_idx" ON "customers"("test_clock_id");

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_test_clock_id_fkey" FOREIGN KEY ("test_clock_id") REFERENCES "test_clocks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_clocks" ADD CONSTRAINT "test_clocks_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

