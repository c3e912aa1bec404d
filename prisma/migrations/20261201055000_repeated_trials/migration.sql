-- Repeated trials (issue 14): a run may sample each item k times; each trial is its own result row, conversation
-- and exec record, keyed by (run, item, trial). Existing rows are trial 1.
ALTER TABLE "RunResult" ADD COLUMN "trial" INTEGER NOT NULL DEFAULT 1;
DROP INDEX "RunResult_runId_itemId_key";
CREATE UNIQUE INDEX "RunResult_runId_itemId_trial_key" ON "RunResult"("runId", "itemId", "trial");

-- SQLite cannot change a primary key in place: rebuild the two tables keyed by item.
CREATE TABLE "new_RunItemConversation" (
    "runId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "trial" INTEGER NOT NULL DEFAULT 1,
    "userPrompt" TEXT NOT NULL,
    "conversationJson" TEXT NOT NULL,

    PRIMARY KEY ("runId", "itemId", "trial"),
    CONSTRAINT "RunItemConversation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_RunItemConversation" ("runId", "itemId", "trial", "userPrompt", "conversationJson")
    SELECT "runId", "itemId", 1, "userPrompt", "conversationJson" FROM "RunItemConversation";
DROP TABLE "RunItemConversation";
ALTER TABLE "new_RunItemConversation" RENAME TO "RunItemConversation";

CREATE TABLE "new_RunItemExec" (
    "runId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "trial" INTEGER NOT NULL DEFAULT 1,
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

    PRIMARY KEY ("runId", "itemId", "trial"),
    CONSTRAINT "RunItemExec_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_RunItemExec"
    SELECT "runId", "itemId", 1, "agent", "commandJson", "outcome", "exitCode", "exitSignal", "durationMs", "stdout", "stderr",
           "stdoutBytes", "stderrBytes", "stdoutTruncated", "stderrTruncated", "workspacePath", "workspaceKept", "invocations"
    FROM "RunItemExec";
DROP TABLE "RunItemExec";
ALTER TABLE "new_RunItemExec" RENAME TO "RunItemExec";
