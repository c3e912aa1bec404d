-- Skill optimisation (issue 15): SkillOpt's training loop stored row by row. Every rollout is an ordinary Run (linked by
-- purpose in OptimizationRun) and every optimizer call a row, so a resumed optimisation replays what finished.
ALTER TABLE "SkillVersion" ADD COLUMN "parentVersionId" INTEGER;
ALTER TABLE "SkillVersion" ADD COLUMN "originOptimizationId" INTEGER;
ALTER TABLE "SkillVersion" ADD COLUMN "originStepKey" TEXT;

CREATE TABLE "Optimization" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "source" TEXT NOT NULL DEFAULT 'executed',
    "skillId" INTEGER NOT NULL,
    "initialVersionId" INTEGER NOT NULL,
    "currentVersionId" INTEGER,
    "bestVersionId" INTEGER,
    "trainDatasetId" INTEGER NOT NULL,
    "valDatasetId" INTEGER NOT NULL,
    "testDatasetId" INTEGER,
    "settingsJson" TEXT NOT NULL,
    "targetConfigJson" TEXT NOT NULL,
    "optimizerJson" TEXT NOT NULL,
    "capsJson" TEXT NOT NULL DEFAULT '{}',
    "stateJson" TEXT NOT NULL DEFAULT '{}',
    "summaryJson" TEXT,
    "stopReason" TEXT,
    "error" TEXT,
    "targetCalls" INTEGER NOT NULL DEFAULT 0,
    "optimizerCalls" INTEGER NOT NULL DEFAULT 0,
    "optimizerTokens" INTEGER NOT NULL DEFAULT 0,
    "workerId" TEXT,
    "heartbeatAt" DATETIME,
    "cancelRequestedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "activeMs" REAL NOT NULL DEFAULT 0
);
CREATE INDEX "Optimization_status_idx" ON "Optimization"("status");

CREATE TABLE "OptimizationStep" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "optimizationId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL,
    "globalStep" INTEGER NOT NULL,
    "batchItemIdsJson" TEXT NOT NULL DEFAULT '[]',
    "candidateVersionId" INTEGER,
    "currentVersionId" INTEGER,
    "bestVersionId" INTEGER,
    "stateJson" TEXT NOT NULL DEFAULT '{}',
    "editBudget" INTEGER,
    "action" TEXT,
    "gateJson" TEXT,
    "approval" TEXT,
    "approvalVersionId" INTEGER,
    "recordJson" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OptimizationStep_optimizationId_fkey" FOREIGN KEY ("optimizationId") REFERENCES "Optimization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "OptimizationStep_optimizationId_key_key" ON "OptimizationStep"("optimizationId", "key");

CREATE TABLE "OptimizationEdit" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "stepId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "op" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "supportCount" INTEGER,
    "sourceType" TEXT,
    "applyStatus" TEXT NOT NULL,
    "applyDetail" TEXT,
    "proposedByJson" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "OptimizationEdit_stepId_fkey" FOREIGN KEY ("stepId") REFERENCES "OptimizationStep" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "OptimizerCall" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "optimizationId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "stepKey" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "minibatch" INTEGER,
    "mergeLevel" INTEGER,
    "itemIdsJson" TEXT NOT NULL DEFAULT '[]',
    "system" TEXT NOT NULL,
    "user" TEXT NOT NULL,
    "reply" TEXT,
    "parsedJson" TEXT,
    "error" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "latencyMs" REAL NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OptimizerCall_optimizationId_fkey" FOREIGN KEY ("optimizationId") REFERENCES "Optimization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "OptimizerCall_optimizationId_key_key" ON "OptimizerCall"("optimizationId", "key");

CREATE TABLE "OptimizationRun" (
    "optimizationId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "runId" INTEGER NOT NULL,

    PRIMARY KEY ("optimizationId", "key"),
    CONSTRAINT "OptimizationRun_optimizationId_fkey" FOREIGN KEY ("optimizationId") REFERENCES "Optimization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OptimizationRun_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "OptimizationRun_runId_idx" ON "OptimizationRun"("runId");
