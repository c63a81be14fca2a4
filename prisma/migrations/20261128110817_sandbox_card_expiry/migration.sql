-- AlterTable
ALTER TABLE "sandbox_payments" ADD COLUMN     "card_exp_month" INTEGER,
ADD COLUMN     "card_exp_year" INTEGER;

-- CreateTable
CREATE TABLE "sandbox_confirmation_tokens" (
    "id" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL,
    "exp_month" INTEGER NOT NULL,
    "exp_year" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_confirmation_tokens_pkey" PRIMARY KEY ("id")
);

