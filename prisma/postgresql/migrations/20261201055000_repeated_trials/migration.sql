-- DropIndex
DROP INDEX "RunResult_runId_itemId_key";

-- AlterTable
ALTER TABLE "RunResult" ADD COLUMN     "trial" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "RunItemConversation" DROP CONSTRAINT "RunItemConversation_pkey",
ADD COLUMN     "trial" INTEGER NOT NULL DEFAULT 1,
ADD CONSTRAINT "RunItemConversation_pkey" PRIMARY KEY ("runId", "itemId", "trial");

-- AlterTable
ALTER TABLE "RunItemExec" DROP CONSTRAINT "RunItemExec_pkey",
ADD COLUMN     "trial" INTEGER NOT NULL DEFAULT 1,
ADD CONSTRAINT "RunItemExec_pkey" PRIMARY KEY ("runId", "itemId", "trial");

-- CreateIndex
CREATE UNIQUE INDEX "RunResult_runId_itemId_trial_key" ON "RunResult"("runId", "itemId", "trial");

