-- CreateTable
CREATE TABLE "product_benefits" (
    "product_id" UUID NOT NULL,
    "benefit_id" UUID NOT NULL,
    "order" INTEGER NOT NULL,

    CONSTRAINT "product_benefits_pkey" PRIMARY KEY ("product_id","benefit_id")
);

-- CreateIndex
CREATE INDEX "product_benefits_benefit_id_idx" ON "product_benefits"("benefit_id");

-- CreateIndex
CREATE UNIQUE INDEX "product_benefits_product_id_order_key" ON "product_benefits"("product_id", "order");

-- AddForeignKey
ALTER TABLE "product_benefits" ADD CONSTRAINT "product_benefits_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_benefits" ADD CONSTRAINT "product_benefits_benefit_id_fkey" FOREIGN KEY ("benefit_id") REFERENCES "benefits"("id") ON DELETE CASCADE ON UPDATE CASCADE;

