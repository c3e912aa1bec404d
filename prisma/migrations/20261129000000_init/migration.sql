-- CreateTable
CREATE TABLE "Skill" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SkillVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "skillId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "note" TEXT,
    "sizeBytes" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SkillVersion_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "Skill" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "itemCount" INTEGER NOT NULL,
    "statsJson" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "DatasetItem" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "datasetId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "context" TEXT NOT NULL,
    "answersJson" TEXT NOT NULL,
    "diagnosticTraceContext" TEXT,
    "metadataJson" TEXT,
    CONSTRAINT "DatasetItem_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Run" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT,
    "datasetId" INTEGER NOT NULL,
    "skillVersionId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "backend" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "configJson" TEXT NOT NULL,
    "systemPrompt" TEXT NOT NULL,
    "error" TEXT,
    "itemsTotal" INTEGER NOT NULL,
    "nDone" INTEGER NOT NULL DEFAULT 0,
    "emSum" REAL NOT NULL DEFAULT 0,
    "f1Sum" REAL NOT NULL DEFAULT 0,
    "subEmSum" REAL NOT NULL DEFAULT 0,
    "nAgentOk" INTEGER NOT NULL DEFAULT 0,
    "nErrors" INTEGER NOT NULL DEFAULT 0,
    "nTimeouts" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "latencyMsSum" REAL NOT NULL DEFAULT 0,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "rateLimited" INTEGER NOT NULL DEFAULT 0,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "retryingNow" INTEGER NOT NULL DEFAULT 0,
    "rateLimitedNow" INTEGER NOT NULL DEFAULT 0,
    "workerId" TEXT,
    "heartbeatAt" DATETIME,
    "cancelRequestedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "resumedAt" DATETIME,
    "resumedDone" INTEGER NOT NULL DEFAULT 0,
    "finishedAt" DATETIME,
    "activeMs" REAL NOT NULL DEFAULT 0,
    CONSTRAINT "Run_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Run_skillVersionId_fkey" FOREIGN KEY ("skillVersionId") REFERENCES "SkillVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunResult" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "datasetItemId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "phase" TEXT,
    "question" TEXT NOT NULL,
    "goldAnswersJson" TEXT NOT NULL,
    "em" REAL NOT NULL,
    "f1" REAL NOT NULL,
    "subEm" REAL NOT NULL,
    "hard" INTEGER NOT NULL,
    "soft" REAL NOT NULL,
    "cumEm" REAL NOT NULL DEFAULT 0,
    "cumF1" REAL NOT NULL DEFAULT 0,
    "cumSubEm" REAL NOT NULL DEFAULT 0,
    "predictedAnswer" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "failReason" TEXT NOT NULL,
    "agentOk" BOOLEAN NOT NULL,
    "nTurns" INTEGER NOT NULL,
    "latencyMs" REAL NOT NULL,
    "promptTokens" INTEGER NOT NULL,
    "completionTokens" INTEGER NOT NULL,
    "attempts" INTEGER NOT NULL,
    "retries" INTEGER NOT NULL,
    "rateLimited" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME NOT NULL,
    CONSTRAINT "RunResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunItemConversation" (
    "runId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "userPrompt" TEXT NOT NULL,
    "conversationJson" TEXT NOT NULL,

    PRIMARY KEY ("runId", "itemId"),
    CONSTRAINT "RunItemConversation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Skill_name_key" ON "Skill"("name");

-- CreateIndex
CREATE UNIQUE INDEX "SkillVersion_skillId_version_key" ON "SkillVersion"("skillId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "SkillVersion_skillId_hash_key" ON "SkillVersion"("skillId", "hash");

-- CreateIndex
CREATE INDEX "Dataset_hash_idx" ON "Dataset"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetItem_datasetId_externalId_key" ON "DatasetItem"("datasetId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetItem_datasetId_ordinal_key" ON "DatasetItem"("datasetId", "ordinal");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE INDEX "Run_datasetId_idx" ON "Run"("datasetId");

-- CreateIndex
CREATE INDEX "Run_skillVersionId_idx" ON "Run"("skillVersionId");

-- CreateIndex
CREATE INDEX "RunResult_runId_seq_idx" ON "RunResult"("runId", "seq");

-- CreateIndex
CREATE INDEX "RunResult_runId_status_idx" ON "RunResult"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "RunResult_runId_itemId_key" ON "RunResult"("runId", "itemId");

