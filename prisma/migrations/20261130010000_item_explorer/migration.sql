-- Item explorer (issue 4): indexes for its filters, sorts and failure groups, and a full-text index for its search.

-- DropIndex: (runId, status) is a prefix of the index below, which also groups errors by message.
DROP INDEX "RunResult_runId_status_idx";

-- CreateIndex
CREATE INDEX "RunResult_runId_status_failReason_idx" ON "RunResult"("runId", "status", "failReason");

-- CreateIndex: covers every filter and the numeric sorts, so the table query never reads the wide rows.
CREATE INDEX "RunResult_runId_em_f1_subEm_status_datasetItemId_latencyMs_nTurns_idx" ON "RunResult"("runId", "em", "f1", "subEm", "status", "datasetItemId", "latencyMs", "nTurns");

-- CreateIndex: the text sorts read these in order (ties in dataset order).
CREATE INDEX "RunResult_runId_question_datasetItemId_em_f1_subEm_status_idx" ON "RunResult"("runId", "question", "datasetItemId", "em", "f1", "subEm", "status");

-- CreateIndex
CREATE INDEX "RunResult_runId_goldAnswersJson_datasetItemId_em_f1_subEm_status_idx" ON "RunResult"("runId", "goldAnswersJson", "datasetItemId", "em", "f1", "subEm", "status");

-- CreateIndex
CREATE INDEX "RunResult_runId_predictedAnswer_datasetItemId_em_f1_subEm_status_idx" ON "RunResult"("runId", "predictedAnswer", "datasetItemId", "em", "f1", "subEm", "status");

-- Search: substring, case-insensitive, over question, gold answers, predicted answer and response. Contentless
-- (the text stays in RunResult only) with rowid = RunResult.id; rows are added by the result writer and removed by
-- retryFailedItems (lib/db/item-search.ts). Not in schema.prisma: Prisma has no virtual tables.
CREATE VIRTUAL TABLE "RunResultSearch" USING fts5(
    question, gold, predicted, response,
    content = '', contentless_delete = 1, tokenize = 'trigram'
);

-- Backfill the results already stored. Gold answers are indexed one per line, not as JSON.
INSERT INTO "RunResultSearch" (rowid, question, gold, predicted, response)
SELECT id, question, (SELECT group_concat(value, char(10)) FROM json_each(goldAnswersJson)), predictedAnswer, response
FROM "RunResult";
