// The summary JSON names the dataset by its file's sha256 (what `sha256sum` prints, as the dataset page does), and
// by the hash of its parsed items under its own name; a dataset stored before file hashes were recorded says null.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRun } from "@/lib/db";
import { buildRunSummary } from "@/lib/export/run-summary";
import { writeTrickyRun } from "../support/export-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

describe("run summary", () => {
  let t: TestDatabase;
  let runId = 0;

  beforeAll(async () => {
    t = createTestDb();
    ({ runId } = await writeTrickyRun(t.db, 5));
  });
  afterAll(() => t.close());

  it("gives the dataset's file sha256 and its items hash, each under its own name", async () => {
    const { datasetId } = await getRun(t.db, runId);
    const itemsHash = (await t.db.dataset.findUniqueOrThrow({ where: { id: datasetId } })).hash;
    expect((await buildRunSummary(t.db, runId)).dataset).toMatchObject({ sha256: null, items_sha256: itemsHash });

    const fileSha256 = createHash("sha256").update("the file's bytes\n").digest("hex");
    await t.db.dataset.update({ where: { id: datasetId }, data: { fileSha256 } });
    expect((await buildRunSummary(t.db, runId)).dataset).toMatchObject({ sha256: fileSha256, items_sha256: itemsHash });
    expect(fileSha256).not.toBe(itemsHash);
  });
});
