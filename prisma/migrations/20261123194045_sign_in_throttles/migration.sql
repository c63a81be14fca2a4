-- CreateTable
CREATE TABLE "sign_in_throttles" (
    "identifier" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "last_failure_at" TIMESTAMPTZ(3) NOT NULL,
    "locked_until" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("identifier")
);

