-- CreateTable
CREATE TABLE "processor_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "processor" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),
    "delivery_lease_until" TIMESTAMPTZ(3),

    CONSTRAINT "processor_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_customers" (
    "id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_payments" (
    "id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL,
    "customer" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "decline_code" TEXT,
    "failure_message" TEXT,
    "event_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_refunds" (
    "id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "metadata" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "failure_reason" TEXT,
    "event_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "processor_events_delivered_at_received_at_idx" ON "processor_events"("delivered_at", "received_at");

-- CreateIndex
CREATE UNIQUE INDEX "processor_events_processor_event_id_key" ON "processor_events"("processor", "event_id");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_customers_idempotency_key_key" ON "sandbox_customers"("idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_payments_idempotency_key_key" ON "sandbox_payments"("idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_refunds_idempotency_key_key" ON "sandbox_refunds"("idempotency_key");

-- CreateIndex
CREATE INDEX "sandbox_refunds_payment_id_idx" ON "sandbox_refunds"("payment_id");

-- AddForeignKey
ALTER TABLE "sandbox_refunds" ADD CONSTRAINT "sandbox_refunds_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "sandbox_payments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

