-- Stuck work (docs/operations.md): activities past the stuck threshold of attempts, and the
-- workflows the review has marked TollgateStuck, so the mark is cleared once the work moves.
-- CreateTable
CREATE TABLE "stuck_activities" (
    "workflow_id" TEXT NOT NULL,
    "activity_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "workflow_type" TEXT NOT NULL,
    "activity_type" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "last_error" TEXT NOT NULL,
    "failing_since" TIMESTAMPTZ(3) NOT NULL,
    "last_failed_at" TIMESTAMPTZ(3) NOT NULL,
    "organization_id" UUID,
    "entity_kind" TEXT,
    "entity_id" TEXT,
    "dashboard_url" TEXT,
    "reviewed_at" TIMESTAMPTZ(3),

    CONSTRAINT "stuck_activities_pkey" PRIMARY KEY ("workflow_id","activity_id")
);

-- CreateTable
CREATE TABLE "stuck_flags" (
    "workflow_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "flagged_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stuck_flags_pkey" PRIMARY KEY ("workflow_id")
);

