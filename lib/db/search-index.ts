/**
 * SQLite's search index (the FTS5 trigram table "RunResultSearch", rowid = RunResult.id) is filled after the rows are
 * written, not as they are: an insert trigger made every stored result pay for its trigrams inside the run's write
 * transaction, 0.06–0.1 ms of CPU per item of a 20,000-item CLI run (measured with the trigger dropped: 0.77–0.83 →
 * 0.71–0.74 ms per item), for a search that a CLI run never makes. Now:
 * - a search indexes what is not indexed yet before it queries (`ensureSearchIndexed`), so it always sees every row;
 * - the dashboard's worker process indexes the tail in the background (`startSearchIndexer`), so that catch-up is
 *   small when someone searches.
 *
 * What is indexed is every result up to the highest rowid in the index: result ids only grow (AUTOINCREMENT), rows
 * are indexed in id order, and each batch reads that mark and indexes past it inside one write transaction, so two
 * processes indexing at once never index a row twice. Deleting results still unindexes them (the delete trigger).
 * PostgreSQL keeps its trigram indexes itself: nothing to do there.
 */
import type { Db } from "./client";
import { engineOf } from "./engine";
import { searchModeOf } from "./explorer-search";
import { prepared, sqliteTransaction } from "./sqlite-transaction";

/** Rows per write transaction: ~0.1 s of SQLite's write lock, so a run's result writer never waits long behind one. */
const ROWS_PER_BATCH = 2000;

const INDEXED_THROUGH = `SELECT rowid AS id FROM "RunResultSearch" ORDER BY rowid DESC LIMIT 1`;
const INDEX_AFTER = `INSERT INTO "RunResultSearch" (rowid, question, gold, predicted, response)
  SELECT "id", "question", (SELECT group_concat(value, char(10)) FROM json_each("goldAnswersJson")), "predictedAnswer", "response"
  FROM "RunResult" WHERE "id" > ? ORDER BY "id" LIMIT ?`;

/** Results stored but not in the search index yet (0 on PostgreSQL). A read: no lock taken. */
export async function unindexedResultCount(db: Db): Promise<number> {
  if (engineOf(db) !== "sqlite") return 0;
  const [row] = await db.$queryRawUnsafe<{ n: number | bigint }[]>(
    `SELECT COUNT(*) AS n FROM "RunResult" WHERE "id" > COALESCE((${INDEXED_THROUGH}), 0)`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Indexes up to `maxRows` of the results not indexed yet (all of them by default), a batch per transaction. Returns
 * how many it indexed. The common case, nothing new since the last call, costs two index lookups and no write lock.
 */
export async function indexSearchTail(db: Db, maxRows = Number.POSITIVE_INFINITY): Promise<number> {
  if ((await unindexedResultCount(db)) === 0) return 0;
  let indexed = 0;
  while (indexed < maxRows) {
    const limit = Math.min(ROWS_PER_BATCH, maxRows - indexed);
    const added = await sqliteTransaction(db, (sqlite) => {
      const through = prepared(sqlite, INDEXED_THROUGH).get() as { id: number | bigint } | undefined;
      return prepared(sqlite, INDEX_AFTER).run(Number(through?.id ?? 0), limit).changes;
    });
    indexed += added;
    if (added < limit) break;
  }
  return indexed;
}

/** Before a search on SQLite: the index is brought up to date, so the search sees every stored result. */
export async function ensureSearchIndexed(db: Db, q: string | undefined): Promise<void> {
  // Terms under 3 characters are scanned with LIKE, not looked up in the index.
  if (q && searchModeOf(q) === "fulltext") await indexSearchTail(db);
}
