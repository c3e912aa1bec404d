import type { Db } from "./client";
import { engineOf } from "./engine";
import { prepared, sqliteTransaction, type SqlValue } from "./sqlite-transaction";

/** The writes of one bulk transaction; SQL uses `?` placeholders and quoted identifiers, which both engines take. */
export interface BulkWrite {
  /** Rows into `table`, each row's values in the order of `columns`. */
  insert(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): void;
  /** One statement. */
  run(sql: string, values: readonly SqlValue[]): void;
}

/** PostgreSQL takes at most 65,535 parameters a statement; a multi-row insert stays well under. */
const MAX_PARAMETERS = 30_000;

/**
 * Runs the writes `work` makes in one transaction: how thousands of result rows or dataset items a second are stored.
 * SQLite: each statement runs at once as a prepared statement on the client's own connection (sqliteTransaction), so
 * `work` must be synchronous. PostgreSQL: the writes are gathered and then sent in order, rows as multi-row INSERTs, in
 * one Prisma transaction (which takes the transaction lock first, like every transaction: postgres-client.ts).
 */
export async function bulkTransaction(db: Db, work: (write: BulkWrite) => void): Promise<void> {
  if (engineOf(db) === "sqlite") {
    await sqliteTransaction(db, (sqlite) =>
      work({
        insert(table, columns, rows) {
          const statement = prepared(sqlite, insertSql(table, columns, 1));
          for (const row of rows) statement.run(row);
        },
        run: (sql, values) => void prepared(sqlite, sql).run(values),
      }),
    );
    return;
  }
  const statements: { sql: string; values: SqlValue[] }[] = [];
  work({
    insert(table, columns, rows) {
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
      for (let start = 0; start < rows.length; start += perStatement) {
        const chunk = rows.slice(start, start + perStatement);
        statements.push({ sql: numberedPlaceholders(insertSql(table, columns, chunk.length)), values: chunk.flat() });
      }
    },
    run: (sql, values) => void statements.push({ sql: numberedPlaceholders(sql), values: [...values] }),
  });
  await db.$transaction(
    async (tx) => {
      for (const { sql, values } of statements) await tx.$executeRawUnsafe(sql, ...values);
    },
    { maxWait: 60_000, timeout: 120_000 },
  );
}

export function insertSql(table: string, columns: readonly string[], rowCount: number): string {
  const row = `(${columns.map(() => "?").join(", ")})`;
  return `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${Array.from({ length: rowCount }, () => row).join(", ")}`;
}

/** `?` → `$1`, `$2`, … (our bulk SQL has no `?` inside a literal). */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
