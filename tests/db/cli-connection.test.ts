// The CLI's processes write a run's results in bulk, and open SQLite for it (CLI_CONNECTION, lib/db/client.ts): a
// smaller page cache, and WAL checkpoints every 10,000 pages instead of every 1,000, so that a 20,000-item run stops
// for a checkpoint (a copy into the database file and an fsync, on the event loop) ~40 times instead of ~90.
// The dashboard server's connection keeps SQLite's defaults.
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

function open(options?: Parameters<typeof openDatabase>[1]): Db {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-cli-connection-"));
  const db = openDatabase(`file:${join(dir, "test.db")}`, options);
  opened.push({ db, dir });
  return db;
}

/** What the connection that Prisma and the result writer share says of itself, after a query through Prisma. */
async function settings(db: Db): Promise<{ checkpointPages: number; cacheSize: number; journal: unknown }> {
  await db.skill.count();
  return sqliteTransaction(db, (sqlite) => ({
    // Numbers as the adapter's connection reads them: BigInt.
    checkpointPages: Number(sqlite.pragma("wal_autocheckpoint", { simple: true })),
    cacheSize: Number(sqlite.pragma("cache_size", { simple: true })),
    journal: sqlite.pragma("journal_mode", { simple: true }),
  }));
}

describe("the CLI's SQLite connection", () => {
  it("checkpoints every 10,000 WAL pages with a 4 MB page cache", async () => {
    expect(await settings(open(CLI_CONNECTION))).toEqual({ checkpointPages: 10_000, cacheSize: -4_000, journal: "wal" });
  });

  it("leaves the server's connection at SQLite's defaults", async () => {
    expect(await settings(open())).toEqual({ checkpointPages: 1_000, cacheSize: -16_000, journal: "wal" });
  });

});
