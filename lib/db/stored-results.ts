import type { ItemResult } from "../runs/types";
import type { Db } from "./client";
import { insertSql, numberedPlaceholders } from "./bulk-write";
import { engineOf } from "./engine";
import { pgTransaction } from "./postgres-client";
import { prepared, sqliteTransaction, type SqlValue } from "./sqlite-transaction";

/** What is stored of the run when a batch is written: the base of the batch's seq and running sums. */
export interface StoredRunStart {
  nDone: number;
  sums: { em: number; f1: number; subEm: number };
}

export interface BatchWrites {
  inserts: { table: string; columns: readonly string[]; rows: SqlValue[][] }[];
  update: { sql: string; values: SqlValue[] };
}

const READ_RUN = `SELECT "nDone", "emSum", "f1Sum", "subEmSum" FROM "Run" WHERE "id" = ?`;

/**
 * One transaction that stores a batch of results of a run, whoever else writes to it at the same time: it locks the
 * run's row first (PostgreSQL: FOR UPDATE; SQLite: its write lock, taken at BEGIN by writeLockFirst), reads what is
 * stored (nDone and the sums: `build` numbers the batch after them), drops the results whose (item, trial) already has
 * a row, and runs `build`'s writes. Under that lock the check cannot race another writer of the run, so the unique
 * (runId, itemId, trial) is never hit and the counters stay the sums of the rows.
 *
 * PostgreSQL: not a Prisma transaction, so it does not take the global transaction lock (postgres-client.ts); the
 * run's row lock serialises the writers of one run, and writers of different runs do not wait for each other.
 */
export async function storeResults(
  db: Db,
  runId: number,
  batch: readonly ItemResult[],
  build: (start: StoredRunStart, fresh: ItemResult[]) => BatchWrites,
): Promise<{ written: number; skipped: number }> {
  if (engineOf(db) === "sqlite") {
    return sqliteTransaction(db, (sqlite) => {
      const run = prepared(sqlite, READ_RUN).get(runId) as { nDone: number; emSum: number; f1Sum: number; subEmSum: number } | undefined;
      if (!run) throw new Error(`run ${runId} not found`);
      const exists = prepared(sqlite, `SELECT 1 FROM "RunResult" WHERE "runId" = ? AND "itemId" = ? AND "trial" = ?`);
      const fresh = uniquePairs(batch).filter((r) => exists.get(runId, r.itemId, r.trial) === undefined);
      const writes = build(startOf(run), fresh);
      for (const insert of writes.inserts) {
        if (insert.rows.length === 0) continue;
        const statement = prepared(sqlite, insertSql(insert.table, insert.columns, 1));
        for (const row of insert.rows) statement.run(row);
      }
      prepared(sqlite, writes.update.sql).run(writes.update.values);
      return { written: fresh.length, skipped: batch.length - fresh.length };
    });
  }
  return pgTransaction(db, async (query) => {
    const [run] = await query(`${numberedPlaceholders(READ_RUN)} FOR UPDATE`, [runId]);
    if (!run) throw new Error(`run ${runId} not found`);
    const unique = uniquePairs(batch);
    const stored =
      unique.length === 0
        ? []
        : await query(
            `SELECT r."itemId", r."trial" FROM "RunResult" r JOIN unnest($2::text[], $3::int[]) AS b("itemId", "trial")
             ON r."itemId" = b."itemId" AND r."trial" = b."trial" WHERE r."runId" = $1`,
            [runId, unique.map((r) => r.itemId), unique.map((r) => r.trial)],
          );
    const storedKeys = new Set(stored.map((row) => pairKey(String(row.itemId), Number(row.trial))));
    const fresh = unique.filter((r) => !storedKeys.has(pairKey(r.itemId, r.trial)));
    const writes = build(startOf(run as { nDone: number; emSum: number; f1Sum: number; subEmSum: number }), fresh);
    for (const insert of writes.inserts) {
      // PostgreSQL takes at most 65,535 parameters a statement.
      const perStatement = Math.max(1, Math.floor(30_000 / insert.columns.length));
      for (let start = 0; start < insert.rows.length; start += perStatement) {
        const chunk = insert.rows.slice(start, start + perStatement);
        await query(numberedPlaceholders(insertSql(insert.table, insert.columns, chunk.length)), chunk.flat());
      }
    }
    await query(numberedPlaceholders(writes.update.sql), writes.update.values);
    return { written: fresh.length, skipped: batch.length - fresh.length };
  });
}

function startOf(run: { nDone: number; emSum: number; f1Sum: number; subEmSum: number }): StoredRunStart {
  return { nDone: Number(run.nDone), sums: { em: Number(run.emSum), f1: Number(run.f1Sum), subEm: Number(run.subEmSum) } };
}

const pairKey = (itemId: string, trial: number) => `${trial}\u0000${itemId}`;

/** A batch holding the same (item, trial) twice keeps the first. */
function uniquePairs(batch: readonly ItemResult[]): ItemResult[] {
  const seen = new Set<string>();
  return batch.filter((r) => {
    const key = pairKey(r.itemId, r.trial);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
