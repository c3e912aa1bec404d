import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { databaseEngine, databaseFilePath, resolveDatabaseUrl } from "./database-url";
import { registerEngine } from "./engine";
import { applyMigrations } from "./migrate";
import { openPostgresDatabase } from "./postgres-client";
import { bindSqliteConnection } from "./sqlite-transaction";
import { writeLockFirst } from "./write-lock-first";

export type Db = PrismaClient;

export interface OpenDatabaseOptions {
  /** SQLite: the connection's page cache, in KiB (PRAGMA cache_size); better-sqlite3 builds SQLite with 16 MB. */
  pageCacheKiB?: number;
}

/**
 * The page cache of the CLI's processes (runs, imports, the dashboard's worker process, exports), which write or read
 * the database once through, not the dashboard server's. A 20,000-item run (its dataset alone is ~60 MB) filled 16 MB
 * with pages it does not read again (and the import before it had filled them already); what is evicted stays in the
 * OS's file cache. Peak RSS, 20,000 / 256: 242-250 MB with 16 MB, 220-238 MB with 4 MB set once the run began (2,000 /
 * 64: 171-180 → 167-175 MB; CPU within noise over five alternating runs); with the request bodies encoded once
 * (lib/model/chat-request-body.ts) 212-218 MB, and with 4 MB from the open on 202-205 MB. The server keeps 16 MB: its
 * explorer queries were ~7% slower with 4 MB (`npm run bench:items`, sums of the p50s over two runs each).
 */
export const CLI_PAGE_CACHE_KIB = 4_000;

/**
 * A client on the database of the URL, with its migrations applied: SQLite for `file:…` (at once, here), PostgreSQL for
 * `postgresql://…` (when it first connects; see postgres-client.ts).
 */
export function openDatabase(url: string = resolveDatabaseUrl(), options: OpenDatabaseOptions = {}): Db {
  return databaseEngine(url) === "postgresql" ? openPostgresDatabase(url) : openSqliteDatabase(url, options);
}

function openSqliteDatabase(url: string, { pageCacheKiB }: OpenDatabaseOptions): Db {
  const path = databaseFilePath(url);
  applyMigrations(path);
  // busy timeout: another process (the dashboard, a second CLI) may hold the write lock briefly.
  const factory = new PrismaBetterSQLite3({ url: `file:${path}`, timeout: 15_000 });
  if (pageCacheKiB !== undefined) withPageCache(factory, pageCacheKiB);
  const adapter = writeLockFirst(factory);
  const db = new PrismaClient({ adapter });
  bindSqliteConnection(db, adapter);
  registerEngine(db, "sqlite");
  return db;
}

/** Sets the page cache on the connection as the adapter opens it. */
function withPageCache(factory: PrismaBetterSQLite3, kib: number): void {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    await adapter.executeScript(`PRAGMA cache_size = -${Math.trunc(kib)}`);
    return adapter;
  };
}

// One client per process; kept on globalThis so Next's dev reloads do not open a connection per edit.
const holder = globalThis as unknown as { __skillboardDb?: Db };

/** The process's client; `options` count only for the call that opens it. */
export function getDb(options?: OpenDatabaseOptions): Db {
  holder.__skillboardDb ??= openDatabase(undefined, options);
  return holder.__skillboardDb;
}
