-- Response cache (issue 14): model replies by their request, reused by runs whose `cache` setting is on.
ALTER TABLE "RunResult" ADD COLUMN "cachedFromRunId" INTEGER;

CREATE TABLE "ResponseCache" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "text" TEXT NOT NULL,
    "promptTokens" INTEGER NOT NULL,
    "completionTokens" INTEGER NOT NULL,
    "runId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
