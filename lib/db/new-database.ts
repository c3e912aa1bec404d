import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations, listMigrations, MIGRATIONS_DIR, NEW_DATABASE_PAGE_BYTES } from "./migrate";

const FORMAT = "skillboard-new-database/1";

/**
 * A new SQLite database made as a copy of an empty one already migrated (a template kept in `folder`), instead of by
 * applying every migration to it: the CLI's, which makes a new database whenever DATABASE_URL names a file that is not
 * there yet (every `npm run bench:peer` run does). Applying the 16 migrations to a new file took ~35 ms of a CLI start
 * (the DDL, 16 migration rows, the checkpoint as the migrating connection closes, all on code run for the first time),
 * and reading the migrations (for the fingerprint) and copying the template ~2-4 ms. (`skill list` and the first model request of
 * a 2,000-item run: the figures are in the commit that added this.)
 *
 * The template is a function of the migrations alone (their names and SQL, and the page size a new database gets):
 * their fingerprint names its file, so a template is never used for another set of migrations. It is made the first
 * time it is needed (or by the CLI's warm-up after a build) by applying the migrations to a file of its own, then
 * renamed into place, so a reader sees a whole template or none.
 *
 * The copy becomes the database by a hard link, which fails if the file appeared meanwhile (a second process making the
 * same database): the database is never replaced, nor seen half-copied. Whatever fails here (no hard links on that file
 * system, a folder that cannot be written) leaves the database to be made as before: this is a cache.
 *
 * Returns the migrations the new database holds (for the caller to announce, as applying them would have), or null
 * when it made none (the database exists, or the template could not be used).
 *
 * The copy's migrations table says when the template was migrated, not when the copy was made: `prisma migrate` reads
 * only which migrations were applied.
 */
export function createDatabaseFromTemplate(dbPath: string, folder: string, migrationsDir: string = MIGRATIONS_DIR): string[] | null {
  // A database file, or a write-ahead log left without one (SQLite would replay it into whatever is there): not new.
  if (existsSync(dbPath) || existsSync(`${dbPath}-wal`)) return null;
  try {
    const { template, migrations } = prepareDatabaseTemplate(folder, migrationsDir);
    const copy = `${dbPath}.${process.pid}-${randomBytes(4).toString("hex")}.new`;
    try {
      copyFileSync(template, copy);
      linkSync(copy, dbPath);
    } finally {
      rmSync(copy, { force: true });
    }
    return migrations;
  } catch {
    return null;
  }
}

/** The template of the current migrations in `folder`, made if it is not there yet (also by the CLI's warm-up). */
export function prepareDatabaseTemplate(folder: string, migrationsDir: string = MIGRATIONS_DIR): { template: string; migrations: string[] } {
  const migrations = readMigrations(migrationsDir);
  const template = join(folder, `new-database-${fingerprint(migrations)}.sqlite`);
  if (!existsSync(template)) makeTemplate(template, migrationsDir);
  return { template, migrations: migrations.map(({ name }) => name) };
}

interface Migration {
  name: string;
  sql: string;
}

function readMigrations(migrationsDir: string): Migration[] {
  return listMigrations(migrationsDir).map((name) => ({ name, sql: readFileSync(join(migrationsDir, name, "migration.sql"), "utf8") }));
}

function fingerprint(migrations: readonly Migration[]): string {
  const hash = createHash("sha256").update(`${FORMAT}\0${NEW_DATABASE_PAGE_BYTES}`);
  for (const { name, sql } of migrations) hash.update(`\0${name}\0${sql.length}\0`).update(sql);
  return hash.digest("hex").slice(0, 24);
}

function makeTemplate(template: string, migrationsDir: string): void {
  mkdirSync(join(template, ".."), { recursive: true });
  const draft = `${template}.${process.pid}-${randomBytes(4).toString("hex")}.draft`;
  try {
    applyMigrations(draft, () => {}, migrationsDir);
    // The migrating connection checkpoints its log into the file as it closes; a log left over would be lost by the copy.
    if (existsSync(`${draft}-wal`)) throw new Error(`${draft}: its write-ahead log was not checkpointed`);
    renameSync(draft, template);
  } finally {
    for (const leftover of [draft, `${draft}-wal`, `${draft}-shm`]) rmSync(leftover, { force: true });
  }
}
