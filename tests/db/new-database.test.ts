// A new SQLite database made as a copy of an empty migrated one (lib/db/new-database.ts): the same database that
// applying the migrations makes, never over one that exists. The CLI's own use (processes racing to make one database,
// the template made by `npm run build`'s warm-up) is in tests/cli/launcher.test.ts.
import Database from "better-sqlite3";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { applyMigrations, listMigrations, MIGRATIONS_DIR } from "@/lib/db/migrate";
import { createDatabaseFromTemplate, prepareDatabaseTemplate } from "@/lib/db/new-database";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skillboard-new-database-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What a database is made of: its schema, its page size and journal mode, and the migrations it records. */
function shapeOf(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      schema: db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all(),
      pageSize: db.pragma("page_size", { simple: true }),
      journalMode: db.pragma("journal_mode", { simple: true }),
      migrations: db.prepare(`SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`).all(),
      integrity: db.pragma("integrity_check", { simple: true }),
    };
  } finally {
    db.close();
  }
}

const templates = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((name) => name.startsWith("new-database-")) : []);

describe("a new database copied from a migrated one", () => {
  it("is the database that applying every migration makes, and names the migrations it holds", () => {
    const migrated = join(dir, "migrated.db");
    applyMigrations(migrated, () => {});
    const copied = join(dir, "copied.db");
    const folder = join(dir, "templates");

    expect(createDatabaseFromTemplate(copied, folder)).toEqual(listMigrations(MIGRATIONS_DIR));
    expect(shapeOf(copied)).toEqual(shapeOf(migrated));
    expect(shapeOf(copied)).toMatchObject({ pageSize: 16_384, journalMode: "wal", integrity: "ok" });
    // The template was made for it, and the next new database is copied from the same one.
    expect(templates(folder)).toHaveLength(1);
    expect(createDatabaseFromTemplate(join(dir, "second.db"), folder)).toHaveLength(listMigrations(MIGRATIONS_DIR).length);
    expect(templates(folder)).toHaveLength(1);
    // Nothing but the databases and the template is left behind.
    // (Opening a database in WAL mode makes its -wal and -shm files.)
    expect(readdirSync(dir).filter((name) => !/-(wal|shm)$/.test(name)).sort()).toEqual(["copied.db", "migrated.db", "second.db", "templates"]);
    expect(readdirSync(folder)).toEqual(templates(folder));
  });

  it("never replaces a database that exists, nor a write-ahead log left without its database", () => {
    const existing = join(dir, "existing.db");
    const db = new Database(existing);
    db.exec(`CREATE TABLE kept (value TEXT); INSERT INTO kept VALUES ('mine')`);
    db.close();
    expect(createDatabaseFromTemplate(existing, join(dir, "templates"))).toBeNull();
    const reopened = new Database(existing, { readonly: true });
    expect(reopened.prepare(`SELECT value FROM kept`).all()).toEqual([{ value: "mine" }]);
    reopened.close();

    // A name taken after the check that the database is not there (as by another process making it at the same time):
    // a dangling symbolic link passes that check, and the copy must not take its place.
    const taken = join(dir, "taken.db");
    symlinkSync(join(dir, "nowhere.db"), taken);
    expect(createDatabaseFromTemplate(taken, join(dir, "templates"))).toBeNull();
    expect(lstatSync(taken).isSymbolicLink()).toBe(true);

    const orphanLog = join(dir, "orphan.db");
    writeFileSync(`${orphanLog}-wal`, "");
    expect(createDatabaseFromTemplate(orphanLog, join(dir, "templates"))).toBeNull();
    expect(existsSync(orphanLog)).toBe(false);
  });

  it("is copied from a template of the migrations there are now: one more migration, one more template", () => {
    const migrations = join(dir, "migrations");
    cpSync(MIGRATIONS_DIR, migrations, { recursive: true });
    const folder = join(dir, "templates");
    prepareDatabaseTemplate(folder, migrations);
    expect(templates(folder)).toHaveLength(1);

    mkdirSync(join(migrations, "29991231000000_extra"));
    writeFileSync(join(migrations, "29991231000000_extra", "migration.sql"), `CREATE TABLE "Extra" ("id" INTEGER PRIMARY KEY);`);
    const path = join(dir, "new.db");
    expect(createDatabaseFromTemplate(path, folder, migrations)).toContain("29991231000000_extra");
    expect(templates(folder)).toHaveLength(2);
    const shape = shapeOf(path);
    expect(shape.schema).toContainEqual(expect.objectContaining({ type: "table", name: "Extra" }));
    expect(shape.migrations).toContainEqual(expect.objectContaining({ migration_name: "29991231000000_extra" }));
  });

  it("leaves the database to the migrations when the template cannot be kept, and it works all the same", async () => {
    // A file where the templates' folder should be.
    const notAFolder = join(dir, "templates");
    writeFileSync(notAFolder, "");
    expect(createDatabaseFromTemplate(join(dir, "direct.db"), notAFolder)).toBeNull();
    expect(existsSync(join(dir, "direct.db"))).toBe(false);

    const db = openDatabase(`file:${join(dir, "opened.db")}`, { newDatabaseFolder: notAFolder });
    try {
      await db.skill.create({ data: { name: "kept" } });
      expect(await db.skill.count()).toBe(1);
    } finally {
      await db.$disconnect();
    }
    expect(shapeOf(join(dir, "opened.db")).migrations).toHaveLength(listMigrations(MIGRATIONS_DIR).length);
  });
});
