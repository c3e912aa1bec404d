import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { openDatabase, type Db } from "@/lib/db";
import { postgresBinDirectory } from "./pg-cluster";

export interface TestDatabase {
  db: Db;
  url: string;
  dir: string;
  close(): Promise<void>;
}

/** The engine the tests run on: SQLite, or PostgreSQL in the "db-postgresql" project (vitest.config.ts). */
export const TEST_ENGINE = process.env.SKILLBOARD_TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite";

let databases = 0;

/**
 * A fresh, migrated database with its own temporary folder: a SQLite file in it, or in the "db-postgresql" project a
 * new PostgreSQL database copied from the migrated template (tests/support/pg-global-setup.ts), dropped on close.
 */
export function createTestDb(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-test-"));
  if (TEST_ENGINE === "sqlite") {
    const url = `file:${join(dir, "test.db")}`;
    const db = openDatabase(url);
    return { db, url, dir, close: closing(db, dir) };
  }
  const server = inject("pgServerUrl");
  const name = `test_${process.pid}_${++databases}_${randomBytes(3).toString("hex")}`;
  psql(server, `CREATE DATABASE ${name} TEMPLATE skillboard_template`);
  const url = `${server}${name}`;
  const db = openDatabase(url);
  const close = closing(db, dir);
  return {
    db,
    url,
    dir,
    async close() {
      await close();
      psql(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

function closing(db: Db, dir: string): () => Promise<void> {
  return async () => {
    await db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  };
}

// Synchronous, so createTestDb stays synchronous on both engines.
function psql(server: string, sql: string): void {
  execFileSync(join(postgresBinDirectory(), "psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", `${server}postgres`, "-c", sql], { stdio: ["ignore", "ignore", "pipe"] });
}
