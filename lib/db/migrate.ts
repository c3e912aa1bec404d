import Database from "better-sqlite3";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const MIGRATIONS_DIR = resolve(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");

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

export interface MigrationReport {
  applied: string[];
}

/**
 * Applies pending SQL migrations from prisma/migrations in one IMMEDIATE transaction.
 * Done in-process (not by spawning the Prisma CLI) so the CLI and server start in milliseconds;
 * concurrent starters serialise on SQLite's write lock. Notices go to stderr, never stdout.
 */
export function applyMigrations(dbPath: string, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): MigrationReport {
  const db = new Database(dbPath, { timeout: 15_000 });
  try {
    // WAL lets the dashboard read while a run writes; the setting is stored in the file.
    db.pragma("journal_mode = WAL");
    const names = listMigrations(MIGRATIONS_DIR);
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
        const sql = readFileSync(join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");
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
    return { applied };
  } finally {
    db.close();
  }
}

/** The migration folders of one engine, in the order they apply (their names start with a timestamp). */
export function listMigrations(dir: string): string[] {
  if (!existsSync(dir)) throw new Error(`migrations folder not found: ${dir} (run from the project root)`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}
