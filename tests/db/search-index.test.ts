// SQLite's search index is filled after the results are written (lib/db/search-index.ts): a search still finds every
// stored result, however recent, each once; two processes indexing at once index nothing twice; the dashboard's
// worker process catches up in the background, without a search.
import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { indexSearchTail, queryRunItems, ResultWriter, unindexedResultCount } from "@/lib/db";
import { parseItemQuery } from "@/lib/runs/item-query";
import { startSearchIndexer } from "@/lib/workers/search-indexer";
import { makeItemResults, writeGeneratedRun } from "../support/item-fixtures";
import { pollUntil } from "../support/poll";
import { createTestDb, TEST_ENGINE, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(() => t.close());

/**
 * indexSearchTail in a process of its own, started on `go()` (the process is up by then, so both index at once);
 * `indexed` resolves with how many results it indexed.
 */
async function anotherIndexer(url: string): Promise<{ go(): void; indexed: Promise<number> }> {
  const script = `import { createInterface } from "node:readline";
    import { openDatabase, indexSearchTail } from "./lib/db/index.ts";
    const db = openDatabase(process.env.DATABASE_URL);
    await db.$connect();
    process.stdout.write("ready\\n");
    for await (const _ of createInterface({ input: process.stdin })) break;
    process.stdout.write(String(await indexSearchTail(db)) + "\\n");
    await db.$disconnect();`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { env: { ...process.env, DATABASE_URL: url } });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.startsWith("ready\n")) resolve();
    });
    void exited.then((code) => reject(new Error(`the indexer process exited (${code}) before it was ready: ${stderr}`)));
  });
  return {
    // Its stdin closed too: an open one would keep it alive once it is done.
    go: () => child.stdin.end("go\n"),
    indexed: exited.then((code) => {
      if (code !== 0) throw new Error(`the indexer process exited with ${code}: ${stderr}`);
      return Number(stdout.slice("ready\n".length).trim());
    }),
  };
}

const search = (runId: number, term: string) => queryRunItems(t.db, runId, parseItemQuery({ filter: "all", q: term }, { filter: "all" }));
/** Rows in the FTS5 table (what the index holds, found or not). */
const indexRows = async () => Number((await t.db.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT COUNT(*) AS n FROM "RunResultSearch"`))[0]!.n);

describe.runIf(TEST_ENGINE === "sqlite")("the search index on SQLite", () => {
  it("is not filled by the result writes, and a search first indexes what is missing, so it finds every result", async () => {
    const { runId } = await writeGeneratedRun(t.db, makeItemResults(300, { seed: 1 }));
    expect(await unindexedResultCount(t.db)).toBe(300);
    expect((await search(runId, "clue")).total).toBe(300);
    expect(await unindexedResultCount(t.db)).toBe(0);

    // Results stored after that search are found by the next one, each once.
    const writer = new ResultWriter(t.db, runId);
    const more = makeItemResults(20, { seed: 2, idOf: (i) => `late-${i}` });
    for (const r of more) writer.push({ ...r, response: `late reply <answer>${r.predictedAnswer}</answer>` });
    await writer.flush();
    expect(await unindexedResultCount(t.db)).toBe(20);
    expect((await search(runId, "late reply")).total).toBe(20);
    // Their questions say "clue N" too.
    expect((await search(runId, "clue")).total).toBe(320);
    expect(await indexRows()).toBe(320);
  });

  it("indexes in batches from where it stopped, and two processes indexing at once index each result once", async () => {
    await writeGeneratedRun(t.db, makeItemResults(5000, { seed: 3 }));
    expect(await indexSearchTail(t.db, 1500)).toBe(1500);
    expect(await unindexedResultCount(t.db)).toBe(3500);
    // Another process on the same file at the same time (the dashboard's worker beside a search in the server). Not a
    // second client in this process: SQLite's driver waits for the write lock synchronously, holding up the thread
    // the first client needs to let go of it.
    const other = await anotherIndexer(t.url);
    other.go();
    const [a, b] = await Promise.all([indexSearchTail(t.db), other.indexed]);
    process.stderr.write(`search-index: two processes indexed ${a} and ${b} of 3500\n`);
    expect(a + b).toBe(3500);
    expect(await unindexedResultCount(t.db)).toBe(0);
    expect(await indexRows()).toBe(5000);
    expect(await indexSearchTail(t.db)).toBe(0);
  });

  it("is caught up in the background by the worker process's indexer, without a search", async () => {
    await writeGeneratedRun(t.db, makeItemResults(400, { seed: 4 }));
    const indexer = startSearchIndexer(t.db, { pollMs: 50, rowsPerPoll: 100 });
    try {
      expect(await pollUntil(() => unindexedResultCount(t.db), (n) => n === 0, 10_000, 20)).toBe(0);
    } finally {
      await indexer.stop();
    }
    expect(await indexRows()).toBe(400);
  });

  it("forgets deleted results, indexed or not", async () => {
    const { runId: indexed } = await writeGeneratedRun(t.db, makeItemResults(50, { seed: 5 }));
    await indexSearchTail(t.db);
    const { runId: kept } = await writeGeneratedRun(t.db, makeItemResults(30, { seed: 6 }));
    const { runId: never } = await writeGeneratedRun(t.db, makeItemResults(10, { seed: 7 }));
    await t.db.run.delete({ where: { id: indexed } });
    await t.db.run.delete({ where: { id: never } });
    expect((await search(kept, "clue")).total).toBe(30);
    expect(await indexRows()).toBe(30);
  });
});

describe.runIf(TEST_ENGINE === "postgresql")("the search index on PostgreSQL", () => {
  it("is PostgreSQL's own trigram indexes: nothing is left to index after a write", async () => {
    const { runId } = await writeGeneratedRun(t.db, makeItemResults(100, { seed: 8 }));
    expect(await unindexedResultCount(t.db)).toBe(0);
    expect(await indexSearchTail(t.db)).toBe(0);
    expect((await search(runId, "clue")).total).toBe(100);
  });
});
