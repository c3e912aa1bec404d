-- Adaptive concurrency (issue 14): the limit in force, written with the other live gauges.
ALTER TABLE "Run" ADD COLUMN "concurrencyLimitNow" INTEGER;
