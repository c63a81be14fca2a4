-- CreateIndex
CREATE INDEX "checkouts_checkout_link_id_created_at_idx" ON "checkouts"("checkout_link_id", "created_at");

