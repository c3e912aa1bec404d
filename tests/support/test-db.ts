import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "@/lib/db";

export interface TestDatabase {
  db: Db;
  url: string;
  dir: string;
  close(): Promise<void>;
}

/** A fresh, migrated SQLite database in its own temporary folder. */
export function createTestDb(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-test-"));
  const url = `file:${join(dir, "test.db")}`;
  const db = openDatabase(url);
  return {
    db,
    url,
    dir,
    async close() {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
