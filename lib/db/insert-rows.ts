import type { Db } from "./client";

// Well under SQLite's limit of 32766 bound variables per statement.
const ROWS_PER_STATEMENT = 500;

export type SqlValue = string | number | null;

/**
 * Raw multi-row INSERTs, for the writes that store thousands of rows: Prisma's query builder costs ~0.3 ms per row
 * (createMany included), which made a run's writes the bottleneck and a 600,000-item dataset take a minute to store;
 * these write hundreds of rows in about a millisecond.
 */
export function insertStatements<C extends string>(db: Db, table: string, columns: readonly C[], rows: Record<C, SqlValue>[]) {
  const statements = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const placeholders = `(${columns.map(() => "?").join(", ")})`;
    const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${chunk.map(() => placeholders).join(", ")}`;
    statements.push(db.$executeRawUnsafe(sql, ...chunk.flatMap((row) => columns.map((c) => row[c]))));
  }
  return statements;
}
