-- AlterTable
ALTER TABLE "Optimization" ADD COLUMN     "optimizerInFlight" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "OptimizerCall" ADD COLUMN     "inputKeysJson" TEXT COLLATE "C" NOT NULL DEFAULT '[]';

