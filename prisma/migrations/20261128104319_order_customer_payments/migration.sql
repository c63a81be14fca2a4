-- AlterTable
ALTER TABLE "order_payment_attempts" ADD COLUMN     "payment_method_id" TEXT;

-- CreateTable
CREATE TABLE "order_customer_payments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "order_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "payment_method_id" TEXT,
    "payment_id" TEXT,
    "decline_code" TEXT,
    "message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "order_customer_payments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "order_customer_payments_order_id_created_at_idx" ON "order_customer_payments"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "order_customer_payments_payment_id_idx" ON "order_customer_payments"("payment_id");

-- AddForeignKey
ALTER TABLE "order_customer_payments" ADD CONSTRAINT "order_customer_payments_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

