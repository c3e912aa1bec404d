-- Agent backend (issue 7): per-item exec details of runs whose items go through an agent command.
-- CreateTable
CREATE TABLE "RunItemExec" (
    "runId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "commandJson" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "exitCode" INTEGER,
    "exitSignal" TEXT,
    "durationMs" REAL NOT NULL,
    "stdout" TEXT NOT NULL,
    "stderr" TEXT NOT NULL,
    "stdoutBytes" INTEGER NOT NULL,
    "stderrBytes" INTEGER NOT NULL,
    "stdoutTruncated" BOOLEAN NOT NULL,
    "stderrTruncated" BOOLEAN NOT NULL,
    "workspacePath" TEXT NOT NULL,
    "workspaceKept" BOOLEAN NOT NULL,
    "invocations" INTEGER NOT NULL,

    PRIMARY KEY ("runId", "itemId"),
    CONSTRAINT "RunItemExec_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

