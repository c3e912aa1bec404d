-- Dataset splits (issue 15): a train / val / test split of a dataset as SkillOpt makes them (ratio mode or an id
-- manifest). Each part is an ordinary dataset; this row says which dataset was split how, and into which parts.
-- CreateTable
CREATE TABLE "DatasetSplit" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "sourceDatasetId" INTEGER NOT NULL,
    "mode" TEXT NOT NULL,
    "ratio" TEXT,
    "seed" INTEGER,
    "manifestSha256" TEXT,
    "trainDatasetId" INTEGER NOT NULL,
    "valDatasetId" INTEGER NOT NULL,
    "testDatasetId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DatasetSplit_sourceDatasetId_fkey" FOREIGN KEY ("sourceDatasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DatasetSplit_trainDatasetId_fkey" FOREIGN KEY ("trainDatasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DatasetSplit_valDatasetId_fkey" FOREIGN KEY ("valDatasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DatasetSplit_testDatasetId_fkey" FOREIGN KEY ("testDatasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSplit_trainDatasetId_key" ON "DatasetSplit"("trainDatasetId");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSplit_valDatasetId_key" ON "DatasetSplit"("valDatasetId");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSplit_testDatasetId_key" ON "DatasetSplit"("testDatasetId");

-- CreateIndex
CREATE INDEX "DatasetSplit_sourceDatasetId_idx" ON "DatasetSplit"("sourceDatasetId");

