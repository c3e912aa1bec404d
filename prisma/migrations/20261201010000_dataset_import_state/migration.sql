-- Large imports (issue 11): a dataset's items are stored in several short transactions, so a run going at the same
-- time can write between them. Until the last one commits the dataset is incomplete and hidden everywhere; an import
-- that died with its process (no heartbeat for long) is deleted by the next import or server start.
ALTER TABLE "Dataset" ADD COLUMN "complete" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Dataset" ADD COLUMN "importHeartbeatAt" DATETIME;
