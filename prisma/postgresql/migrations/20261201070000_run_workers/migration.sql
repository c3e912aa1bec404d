-- AlterTable
ALTER TABLE "RunItemExec" ADD COLUMN     "host" TEXT COLLATE "C",
ADD COLUMN     "workerName" TEXT COLLATE "C";

-- CreateTable
CREATE TABLE "RunWorker" (
    "runId" INTEGER NOT NULL,
    "workerId" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "host" TEXT COLLATE "C" NOT NULL,
    "slots" INTEGER NOT NULL,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "retrying" INTEGER NOT NULL DEFAULT 0,
    "rateLimited" INTEGER NOT NULL DEFAULT 0,
    "joinedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunWorker_pkey" PRIMARY KEY ("runId","workerId")
);

-- AddForeignKey
ALTER TABLE "RunWorker" ADD CONSTRAINT "RunWorker_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

