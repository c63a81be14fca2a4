-- Pause and resume (docs/subscriptions.md, "Pause and resume").
ALTER TABLE "subscriptions" ADD COLUMN "pause_at_period_end" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "subscriptions" ADD COLUMN "paused_at" TIMESTAMPTZ(3);
ALTER TABLE "subscriptions" ADD COLUMN "resumes_at" TIMESTAMPTZ(3);
ALTER TABLE "products" ADD COLUMN "pause_keeps_benefits" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "organizations" ADD COLUMN "customer_portal_pause" BOOLEAN NOT NULL DEFAULT false;
