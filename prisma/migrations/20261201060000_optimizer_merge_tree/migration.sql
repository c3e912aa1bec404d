-- Skill optimisation (issue 16), written by hand (`prisma migrate diff` needs the network here):
-- which calls' results each optimizer call took in (a merge call's analyst patches or lower merges, the final merge's
-- two trees, the ranking's merged patch), so a step page can draw the merge tree; and the optimizer calls in flight
-- now, a live gauge like Run.inFlight.
ALTER TABLE "OptimizerCall" ADD COLUMN "inputKeysJson" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "Optimization" ADD COLUMN "optimizerInFlight" INTEGER NOT NULL DEFAULT 0;
