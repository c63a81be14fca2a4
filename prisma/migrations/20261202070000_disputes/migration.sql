-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "dispute_auto_accept_below_amount" INTEGER,
ADD COLUMN     "dispute_revoke_benefits" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "disputes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "payment_id" UUID NOT NULL,
    "processor" TEXT NOT NULL,
    "processor_dispute_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "tax_amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT,
    "evidence_due_by" TIMESTAMPTZ(3),
    "accepted_at" TIMESTAMPTZ(3),
    "revokes_benefits" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "modified_at" TIMESTAMPTZ(3),

    CONSTRAINT "disputes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "disputes_organization_id_created_at_idx" ON "disputes"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "disputes_order_id_idx" ON "disputes"("order_id");

-- CreateIndex
CREATE UNIQUE INDEX "disputes_processor_processor_dispute_id_key" ON "disputes"("processor", "processor_dispute_id");

-- AddForeignKey
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
