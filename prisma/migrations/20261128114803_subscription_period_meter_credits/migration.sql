-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "period_meter_credits" JSONB NOT NULL DEFAULT '{}';

