import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { databaseFilePath, resolveDatabaseUrl } from "./database-url";
import { applyMigrations } from "./migrate";
import { bindSqliteConnection } from "./sqlite-transaction";
import { writeLockFirst } from "./write-lock-first";

export type Db = PrismaClient;

/** A client on the given SQLite URL with its migrations applied. */
export function openDatabase(url: string = resolveDatabaseUrl()): Db {
  const path = databaseFilePath(url);
  applyMigrations(path);
  // busy timeout: another process (the dashboard, a second CLI) may hold the write lock briefly.
  const adapter = writeLockFirst(new PrismaBetterSQLite3({ url: `file:${path}`, timeout: 15_000 }));
  const db = new PrismaClient({ adapter });
  bindSqliteConnection(db, adapter);
  return db;
}

// One client per process; kept on globalThis so Next's dev reloads do not open a connection per edit.
const holder = globalThis as unknown as { __skillboardDb?: Db };

export function getDb(): Db {
  holder.__skillboardDb ??= openDatabase();
  return holder.__skillboardDb;
}
