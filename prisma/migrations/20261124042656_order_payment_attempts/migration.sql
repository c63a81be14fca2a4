-- CreateTable
CREATE TABLE "order_payment_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "order_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "payment_id" TEXT,
    "decline_code" TEXT,
    "message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "order_payment_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "order_payment_attempts_order_id_attempt_key" ON "order_payment_attempts"("order_id", "attempt");

-- AddForeignKey
ALTER TABLE "order_payment_attempts" ADD CONSTRAINT "order_payment_attempts_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

