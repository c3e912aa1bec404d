import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { databaseEngine, databaseFilePath, resolveDatabaseUrl } from "./database-url";
import { registerEngine } from "./engine";
import { applyMigrations } from "./migrate";
import { openPostgresDatabase } from "./postgres-client";
import { bindSqliteConnection } from "./sqlite-transaction";
import { writeLockFirst } from "./write-lock-first";

export type Db = PrismaClient;

/**
 * A client on the database of the URL, with its migrations applied: SQLite for `file:…` (at once, here), PostgreSQL for
 * `postgresql://…` (when it first connects; see postgres-client.ts).
 */
export function openDatabase(url: string = resolveDatabaseUrl()): Db {
  return databaseEngine(url) === "postgresql" ? openPostgresDatabase(url) : openSqliteDatabase(url);
}

function openSqliteDatabase(url: string): Db {
  const path = databaseFilePath(url);
  applyMigrations(path);
  // busy timeout: another process (the dashboard, a second CLI) may hold the write lock briefly.
  const adapter = writeLockFirst(new PrismaBetterSQLite3({ url: `file:${path}`, timeout: 15_000 }));
  const db = new PrismaClient({ adapter });
  bindSqliteConnection(db, adapter);
  registerEngine(db, "sqlite");
  return db;
}

// One client per process; kept on globalThis so Next's dev reloads do not open a connection per edit.
const holder = globalThis as unknown as { __skillboardDb?: Db };

export function getDb(): Db {
  holder.__skillboardDb ??= openDatabase();
  return holder.__skillboardDb;
}
