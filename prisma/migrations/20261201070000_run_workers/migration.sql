-- Several worker processes on one run (issue 17, PostgreSQL's queue), written by hand: the workers taking part in a run
-- with their share of its concurrency and their live gauges, and the machine and worker that ran an agent item.
CREATE TABLE "RunWorker" (
    "runId" INTEGER NOT NULL,
    "workerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "slots" INTEGER NOT NULL,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "retrying" INTEGER NOT NULL DEFAULT 0,
    "rateLimited" INTEGER NOT NULL DEFAULT 0,
    "joinedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("runId", "workerId"),
    CONSTRAINT "RunWorker_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
ALTER TABLE "RunItemExec" ADD COLUMN "host" TEXT;
ALTER TABLE "RunItemExec" ADD COLUMN "workerName" TEXT;
