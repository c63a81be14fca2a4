-- Test clocks (docs/subscriptions.md): the request key of the advance that set a clock's time, so a
-- retried advance whose answer was lost is answered as that advance.
-- AlterTable
ALTER TABLE "test_clocks" ADD COLUMN     "advance_request_key" TEXT;
