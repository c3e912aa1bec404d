import Database from "better-sqlite3";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The SQLite migrations, in the project the process runs from. */
export const MIGRATIONS_DIR = resolve(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");

// Same table as `prisma migrate deploy` keeps, so either tool can take over a database the other made.
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "checksum" TEXT NOT NULL,
  "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL,
  "logs" TEXT,
  "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
  "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/**
 * The page size of a database this code creates (SQLite's default is 4 KB; an existing database keeps the size it was
 * made with). A dataset item (question and search context) is ~3.6 KB and a result's conversation ~3 KB: with 4 KB
 * pages most rows took a page of their own and SQLite wrote each page to the WAL in two calls (frame header, page) and
 * again at the checkpoint, so a 20,000-item import made 71,000 pwrite calls. Importing that file: 1.58-1.67 s → 1.18-1.25 s
 * with 16 KB pages, CPU 1.63-1.73 → 1.31-1.46 s. A whole 20,000 / 256 run, three alternating pairs on one host: CPU
 * 11.13-11.81 → 10.58-10.75 s, wall 9.99-10.61 → 9.53-9.71 s. 32 KB and 64 KB measured no better than 16 KB. The
 * dashboard's reads did not suffer: `npm run bench:items -- --items 50000`, sum of the p50s 2,122 ms with 4 KB pages,
 * 1,450 and 1,884 ms with 16 KB (and a database of 123 MB instead of 133 MB).
 */
export const NEW_DATABASE_PAGE_BYTES = 16_384;

export interface MigrationReport {
  applied: string[];
}

export interface SqliteMigrationReport extends MigrationReport {
  /** The database's page size in bytes (a database made before NEW_DATABASE_PAGE_BYTES keeps its own). */
  pageBytes: number;
}

/**
 * Applies pending SQL migrations from prisma/migrations in one IMMEDIATE transaction.
 * Done in-process (not by spawning the Prisma CLI) so the CLI and server start in milliseconds;
 * concurrent starters serialise on SQLite's write lock. Notices go to stderr, never stdout.
 */
export function applyMigrations(
  dbPath: string,
  log: (line: string) => void = logMigrationLine,
  migrationsDir: string = MIGRATIONS_DIR,
): SqliteMigrationReport {
  const db = new Database(dbPath, { timeout: 15_000 });
  try {
    // Takes effect only on a database that has no table yet, and must come before WAL mode, which fixes the page size.
    db.pragma(`page_size = ${NEW_DATABASE_PAGE_BYTES}`);
    // WAL lets the dashboard read while a run writes; the setting is stored in the file.
    db.pragma("journal_mode = WAL");
    const names = listMigrations(migrationsDir);
    const applied: string[] = [];
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(MIGRATIONS_TABLE);
      const done = new Set(
        db.prepare(`SELECT migration_name FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`)
          .all()
          .map((row) => (row as { migration_name: string }).migration_name),
      );
      const record = db.prepare(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
      );
      for (const name of names) {
        if (done.has(name)) continue;
        const sql = readFileSync(join(migrationsDir, name, "migration.sql"), "utf8");
        const startedAt = new Date().toISOString();
        db.exec(sql);
        record.run(randomUUID(), createHash("sha256").update(sql).digest("hex"), new Date().toISOString(), name, startedAt);
        applied.push(name);
      }
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
    for (const name of applied) log(`skillboard: applied database migration ${name}`);
    return { applied, pageBytes: Number(db.pragma("page_size", { simple: true })) };
  } finally {
    db.close();
  }
}

/** Where a migration's notice goes: stderr, never stdout (a CLI's data). */
export function logMigrationLine(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** The migration folders of one engine, in the order they apply (their names start with a timestamp). */
export function listMigrations(dir: string): string[] {
  if (!existsSync(dir)) throw new Error(`migrations folder not found: ${dir} (run from the project root)`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}
