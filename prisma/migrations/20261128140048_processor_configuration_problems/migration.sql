-- CreateTable
CREATE TABLE "processor_configuration_problems" (
    "organization_id" UUID NOT NULL,
    "processor" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "processor_configuration_problems_pkey" PRIMARY KEY ("organization_id")
);

-- AddForeignKey
ALTER TABLE "processor_configuration_problems" ADD CONSTRAINT "processor_configuration_problems_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

