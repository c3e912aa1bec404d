// The CLI's processes write a run's results in bulk, and open SQLite for it (CLI_CONNECTION, lib/db/client.ts): a
// smaller page cache, and WAL checkpoints every ~40 MB instead of every 1,000 pages, so that a 20,000-item run stops
// for a checkpoint (a copy into the database file and an fsync, on the event loop) ~40 times instead of ~90.
// The dashboard server's connection keeps SQLite's defaults. A new database has 16 KB pages (lib/db/migrate.ts); one
// made with SQLite's 4 KB keeps them.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI_CONNECTION, openDatabase, type Db } from "@/lib/db";
import { sqliteTransaction } from "@/lib/db/sqlite-transaction";

const opened: { db: Db; dir: string }[] = [];
afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    await db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
});

function open(options?: Parameters<typeof openDatabase>[1], existingPageBytes?: number): Db {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-cli-connection-"));
  const path = join(dir, "test.db");
  if (existingPageBytes !== undefined) {
    // A database some earlier version made: its page size is fixed once it has a table.
    const sqlite = new Database(path);
    sqlite.pragma(`page_size = ${existingPageBytes}`);
    sqlite.exec("CREATE TABLE made_before (x INTEGER)");
    sqlite.close();
  }
  const db = openDatabase(`file:${path}`, options);
  opened.push({ db, dir });
  return db;
}

/** What the connection that Prisma and the result writer share says of itself, after a query through Prisma. */
async function settings(db: Db): Promise<{ pageBytes: number; checkpointPages: number; cacheSize: number; journal: unknown }> {
  await db.skill.count();
  return sqliteTransaction(db, (sqlite) => ({
    // Numbers as the adapter's connection reads them: BigInt.
    pageBytes: Number(sqlite.pragma("page_size", { simple: true })),
    checkpointPages: Number(sqlite.pragma("wal_autocheckpoint", { simple: true })),
    cacheSize: Number(sqlite.pragma("cache_size", { simple: true })),
    journal: sqlite.pragma("journal_mode", { simple: true }),
  }));
}

describe("the CLI's SQLite connection", () => {
  it("checkpoints every ~40 MB of WAL (2,500 pages of 16 KB) with a 4 MB page cache", async () => {
    expect(await settings(open(CLI_CONNECTION))).toEqual({ pageBytes: 16_384, checkpointPages: 2_500, cacheSize: -4_000, journal: "wal" });
  });

  it("counts the checkpoint in the pages of a database made with 4 KB pages, which keeps them", async () => {
    expect(await settings(open(CLI_CONNECTION, 4_096))).toEqual({ pageBytes: 4_096, checkpointPages: 10_000, cacheSize: -4_000, journal: "wal" });
  });

  it("leaves the server's connection at SQLite's defaults", async () => {
    expect(await settings(open())).toEqual({ pageBytes: 16_384, checkpointPages: 1_000, cacheSize: -16_000, journal: "wal" });
  });

});
