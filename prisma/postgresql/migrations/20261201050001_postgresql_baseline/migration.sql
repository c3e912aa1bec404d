-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "Skill" (
    "id" SERIAL NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Skill_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SkillVersion" (
    "id" SERIAL NOT NULL,
    "skillId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "content" TEXT COLLATE "C" NOT NULL,
    "hash" TEXT COLLATE "C" NOT NULL,
    "note" TEXT COLLATE "C",
    "sizeBytes" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "parentVersionId" INTEGER,
    "originOptimizationId" INTEGER,
    "originStepKey" TEXT COLLATE "C",

    CONSTRAINT "SkillVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" SERIAL NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "fileName" TEXT COLLATE "C" NOT NULL,
    "format" TEXT COLLATE "C" NOT NULL,
    "hash" TEXT COLLATE "C" NOT NULL,
    "fileSha256" TEXT COLLATE "C",
    "itemCount" INTEGER NOT NULL,
    "statsJson" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "complete" BOOLEAN NOT NULL DEFAULT true,
    "importHeartbeatAt" TIMESTAMP(3),

    CONSTRAINT "Dataset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetItem" (
    "id" SERIAL NOT NULL,
    "datasetId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "externalId" TEXT COLLATE "C" NOT NULL,
    "question" TEXT COLLATE "C" NOT NULL,
    "context" TEXT COLLATE "C" NOT NULL,
    "answersJson" TEXT COLLATE "C" NOT NULL,
    "diagnosticTraceContext" TEXT COLLATE "C",
    "metadataJson" TEXT COLLATE "C",

    CONSTRAINT "DatasetItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetSplit" (
    "id" SERIAL NOT NULL,
    "sourceDatasetId" INTEGER NOT NULL,
    "mode" TEXT COLLATE "C" NOT NULL,
    "ratio" TEXT COLLATE "C",
    "seed" INTEGER,
    "manifestSha256" TEXT COLLATE "C",
    "trainDatasetId" INTEGER NOT NULL,
    "valDatasetId" INTEGER NOT NULL,
    "testDatasetId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatasetSplit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" SERIAL NOT NULL,
    "name" TEXT COLLATE "C",
    "datasetId" INTEGER NOT NULL,
    "skillVersionId" INTEGER NOT NULL,
    "status" TEXT COLLATE "C" NOT NULL DEFAULT 'queued',
    "source" TEXT COLLATE "C" NOT NULL DEFAULT 'executed',
    "backend" TEXT COLLATE "C" NOT NULL,
    "model" TEXT COLLATE "C" NOT NULL,
    "configJson" TEXT COLLATE "C" NOT NULL,
    "systemPrompt" TEXT COLLATE "C" NOT NULL,
    "error" TEXT COLLATE "C",
    "itemsTotal" INTEGER NOT NULL,
    "nDone" INTEGER NOT NULL DEFAULT 0,
    "emSum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "f1Sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "subEmSum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "nAgentOk" INTEGER NOT NULL DEFAULT 0,
    "nErrors" INTEGER NOT NULL DEFAULT 0,
    "nTimeouts" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "latencyMsSum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "rateLimited" INTEGER NOT NULL DEFAULT 0,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "retryingNow" INTEGER NOT NULL DEFAULT 0,
    "rateLimitedNow" INTEGER NOT NULL DEFAULT 0,
    "concurrencyLimitNow" INTEGER,
    "workerId" TEXT COLLATE "C",
    "heartbeatAt" TIMESTAMP(3),
    "cancelRequestedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "resumedAt" TIMESTAMP(3),
    "resumedDone" INTEGER NOT NULL DEFAULT 0,
    "finishedAt" TIMESTAMP(3),
    "activeMs" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunResult" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "itemId" TEXT COLLATE "C" NOT NULL,
    "datasetItemId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "status" TEXT COLLATE "C" NOT NULL,
    "phase" TEXT COLLATE "C",
    "question" TEXT COLLATE "C" NOT NULL,
    "goldAnswersJson" TEXT COLLATE "C" NOT NULL,
    "em" DOUBLE PRECISION NOT NULL,
    "f1" DOUBLE PRECISION NOT NULL,
    "subEm" DOUBLE PRECISION NOT NULL,
    "hard" INTEGER NOT NULL,
    "soft" DOUBLE PRECISION NOT NULL,
    "cumEm" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "cumF1" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "cumSubEm" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "predictedAnswer" TEXT COLLATE "C" NOT NULL,
    "response" TEXT COLLATE "C" NOT NULL,
    "failReason" TEXT COLLATE "C" NOT NULL,
    "agentOk" BOOLEAN NOT NULL,
    "nTurns" INTEGER NOT NULL,
    "latencyMs" DOUBLE PRECISION NOT NULL,
    "promptTokens" INTEGER NOT NULL,
    "completionTokens" INTEGER NOT NULL,
    "attempts" INTEGER NOT NULL,
    "retries" INTEGER NOT NULL,
    "rateLimited" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL,
    "cachedFromRunId" INTEGER,

    CONSTRAINT "RunResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunItemConversation" (
    "runId" INTEGER NOT NULL,
    "itemId" TEXT COLLATE "C" NOT NULL,
    "userPrompt" TEXT COLLATE "C" NOT NULL,
    "conversationJson" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "RunItemConversation_pkey" PRIMARY KEY ("runId","itemId")
);

-- CreateTable
CREATE TABLE "RunItemExec" (
    "runId" INTEGER NOT NULL,
    "itemId" TEXT COLLATE "C" NOT NULL,
    "agent" TEXT COLLATE "C" NOT NULL,
    "commandJson" TEXT COLLATE "C" NOT NULL,
    "outcome" TEXT COLLATE "C" NOT NULL,
    "exitCode" INTEGER,
    "exitSignal" TEXT COLLATE "C",
    "durationMs" DOUBLE PRECISION NOT NULL,
    "stdout" TEXT COLLATE "C" NOT NULL,
    "stderr" TEXT COLLATE "C" NOT NULL,
    "stdoutBytes" INTEGER NOT NULL,
    "stderrBytes" INTEGER NOT NULL,
    "stdoutTruncated" BOOLEAN NOT NULL,
    "stderrTruncated" BOOLEAN NOT NULL,
    "workspacePath" TEXT COLLATE "C" NOT NULL,
    "workspaceKept" BOOLEAN NOT NULL,
    "invocations" INTEGER NOT NULL,

    CONSTRAINT "RunItemExec_pkey" PRIMARY KEY ("runId","itemId")
);

-- CreateTable
CREATE TABLE "Optimization" (
    "id" SERIAL NOT NULL,
    "name" TEXT COLLATE "C",
    "status" TEXT COLLATE "C" NOT NULL DEFAULT 'queued',
    "source" TEXT COLLATE "C" NOT NULL DEFAULT 'executed',
    "skillId" INTEGER NOT NULL,
    "initialVersionId" INTEGER NOT NULL,
    "currentVersionId" INTEGER,
    "bestVersionId" INTEGER,
    "trainDatasetId" INTEGER NOT NULL,
    "valDatasetId" INTEGER NOT NULL,
    "testDatasetId" INTEGER,
    "settingsJson" TEXT COLLATE "C" NOT NULL,
    "targetConfigJson" TEXT COLLATE "C" NOT NULL,
    "optimizerJson" TEXT COLLATE "C" NOT NULL,
    "capsJson" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "stateJson" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "summaryJson" TEXT COLLATE "C",
    "stopReason" TEXT COLLATE "C",
    "error" TEXT COLLATE "C",
    "targetCalls" INTEGER NOT NULL DEFAULT 0,
    "optimizerCalls" INTEGER NOT NULL DEFAULT 0,
    "optimizerTokens" INTEGER NOT NULL DEFAULT 0,
    "workerId" TEXT COLLATE "C",
    "heartbeatAt" TIMESTAMP(3),
    "cancelRequestedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "activeMs" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "Optimization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OptimizationStep" (
    "id" SERIAL NOT NULL,
    "optimizationId" INTEGER NOT NULL,
    "key" TEXT COLLATE "C" NOT NULL,
    "kind" TEXT COLLATE "C" NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL,
    "globalStep" INTEGER NOT NULL,
    "batchItemIdsJson" TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    "candidateVersionId" INTEGER,
    "currentVersionId" INTEGER,
    "bestVersionId" INTEGER,
    "stateJson" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "editBudget" INTEGER,
    "action" TEXT COLLATE "C",
    "gateJson" TEXT COLLATE "C",
    "approval" TEXT COLLATE "C",
    "approvalVersionId" INTEGER,
    "recordJson" TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OptimizationStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OptimizationEdit" (
    "id" SERIAL NOT NULL,
    "stepId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "op" TEXT COLLATE "C" NOT NULL,
    "target" TEXT COLLATE "C" NOT NULL,
    "content" TEXT COLLATE "C" NOT NULL,
    "supportCount" INTEGER,
    "sourceType" TEXT COLLATE "C",
    "applyStatus" TEXT COLLATE "C" NOT NULL,
    "applyDetail" TEXT COLLATE "C",
    "proposedByJson" TEXT COLLATE "C" NOT NULL DEFAULT '[]',

    CONSTRAINT "OptimizationEdit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OptimizerCall" (
    "id" SERIAL NOT NULL,
    "optimizationId" INTEGER NOT NULL,
    "key" TEXT COLLATE "C" NOT NULL,
    "stepKey" TEXT COLLATE "C" NOT NULL,
    "stage" TEXT COLLATE "C" NOT NULL,
    "minibatch" INTEGER,
    "mergeLevel" INTEGER,
    "itemIdsJson" TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    "system" TEXT COLLATE "C" NOT NULL,
    "user" TEXT COLLATE "C" NOT NULL,
    "reply" TEXT COLLATE "C",
    "parsedJson" TEXT COLLATE "C",
    "error" TEXT COLLATE "C",
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "latencyMs" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OptimizerCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OptimizationRun" (
    "optimizationId" INTEGER NOT NULL,
    "key" TEXT COLLATE "C" NOT NULL,
    "runId" INTEGER NOT NULL,

    CONSTRAINT "OptimizationRun_pkey" PRIMARY KEY ("optimizationId","key")
);

-- CreateTable
CREATE TABLE "ResponseCache" (
    "key" TEXT COLLATE "C" NOT NULL,
    "text" TEXT COLLATE "C" NOT NULL,
    "promptTokens" INTEGER NOT NULL,
    "completionTokens" INTEGER NOT NULL,
    "runId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ResponseCache_pkey" PRIMARY KEY ("key")
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
CREATE UNIQUE INDEX "DatasetSplit_trainDatasetId_key" ON "DatasetSplit"("trainDatasetId");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSplit_valDatasetId_key" ON "DatasetSplit"("valDatasetId");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSplit_testDatasetId_key" ON "DatasetSplit"("testDatasetId");

-- CreateIndex
CREATE INDEX "DatasetSplit_sourceDatasetId_idx" ON "DatasetSplit"("sourceDatasetId");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE INDEX "Run_datasetId_idx" ON "Run"("datasetId");

-- CreateIndex
CREATE INDEX "Run_skillVersionId_idx" ON "Run"("skillVersionId");

-- CreateIndex
CREATE INDEX "RunResult_runId_seq_idx" ON "RunResult"("runId", "seq");

-- CreateIndex
CREATE INDEX "RunResult_runId_status_failReason_idx" ON "RunResult"("runId", "status", "failReason");

-- CreateIndex
CREATE INDEX "RunResult_runId_em_f1_subEm_status_datasetItemId_latencyMs__idx" ON "RunResult"("runId", "em", "f1", "subEm", "status", "datasetItemId", "latencyMs", "nTurns");

-- CreateIndex
CREATE INDEX "RunResult_runId_question_datasetItemId_em_f1_subEm_status_idx" ON "RunResult"("runId", "question", "datasetItemId", "em", "f1", "subEm", "status");

-- CreateIndex
CREATE INDEX "RunResult_runId_goldAnswersJson_datasetItemId_em_f1_subEm_s_idx" ON "RunResult"("runId", "goldAnswersJson", "datasetItemId", "em", "f1", "subEm", "status");

-- CreateIndex
CREATE INDEX "RunResult_runId_predictedAnswer_datasetItemId_em_f1_subEm_s_idx" ON "RunResult"("runId", "predictedAnswer", "datasetItemId", "em", "f1", "subEm", "status");

-- CreateIndex
CREATE INDEX "RunResult_question_trgm_idx" ON "RunResult" USING GIN ("question" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "RunResult_goldAnswersJson_trgm_idx" ON "RunResult" USING GIN ("goldAnswersJson" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "RunResult_predictedAnswer_trgm_idx" ON "RunResult" USING GIN ("predictedAnswer" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "RunResult_response_trgm_idx" ON "RunResult" USING GIN ("response" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "RunResult_runId_itemId_key" ON "RunResult"("runId", "itemId");

-- CreateIndex
CREATE INDEX "Optimization_status_idx" ON "Optimization"("status");

-- CreateIndex
CREATE UNIQUE INDEX "OptimizationStep_optimizationId_key_key" ON "OptimizationStep"("optimizationId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "OptimizerCall_optimizationId_key_key" ON "OptimizerCall"("optimizationId", "key");

-- CreateIndex
CREATE INDEX "OptimizationRun_runId_idx" ON "OptimizationRun"("runId");

-- AddForeignKey
ALTER TABLE "SkillVersion" ADD CONSTRAINT "SkillVersion_skillId_fkey" FOREIGN KEY ("skillId") REFERENCES "Skill"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetItem" ADD CONSTRAINT "DatasetItem_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetSplit" ADD CONSTRAINT "DatasetSplit_sourceDatasetId_fkey" FOREIGN KEY ("sourceDatasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetSplit" ADD CONSTRAINT "DatasetSplit_trainDatasetId_fkey" FOREIGN KEY ("trainDatasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetSplit" ADD CONSTRAINT "DatasetSplit_valDatasetId_fkey" FOREIGN KEY ("valDatasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetSplit" ADD CONSTRAINT "DatasetSplit_testDatasetId_fkey" FOREIGN KEY ("testDatasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_skillVersionId_fkey" FOREIGN KEY ("skillVersionId") REFERENCES "SkillVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunResult" ADD CONSTRAINT "RunResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunItemConversation" ADD CONSTRAINT "RunItemConversation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunItemExec" ADD CONSTRAINT "RunItemExec_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OptimizationStep" ADD CONSTRAINT "OptimizationStep_optimizationId_fkey" FOREIGN KEY ("optimizationId") REFERENCES "Optimization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OptimizationEdit" ADD CONSTRAINT "OptimizationEdit_stepId_fkey" FOREIGN KEY ("stepId") REFERENCES "OptimizationStep"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OptimizerCall" ADD CONSTRAINT "OptimizerCall_optimizationId_fkey" FOREIGN KEY ("optimizationId") REFERENCES "Optimization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OptimizationRun" ADD CONSTRAINT "OptimizationRun_optimizationId_fkey" FOREIGN KEY ("optimizationId") REFERENCES "Optimization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OptimizationRun" ADD CONSTRAINT "OptimizationRun_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

