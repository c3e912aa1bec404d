-- The dataset file's own sha256 (what `sha256sum` prints), beside the hash of its parsed items. Datasets stored
-- before this column have none: their pages say "not recorded".
-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN "fileSha256" TEXT;
