import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { QueryCompiler } from "@prisma/client/runtime/query_compiler_bg.sqlite.mjs";
import { PrismaClient } from "../../generated/prisma/client";
import { databaseEngine, databaseFilePath, resolveDatabaseUrl } from "./database-url";
import { registerEngine } from "./engine";
import { applyMigrations, logMigrationLine, NEW_DATABASE_PAGE_BYTES } from "./migrate";
import { createDatabaseFromTemplate } from "./new-database";
import { openPostgresDatabase } from "./postgres-client";
import { cacheQueryPlans } from "./query-plan-cache";
import { keepQueryPlansIn, type CompilerWasmSource } from "./query-plan-store";
import { bindSqliteConnection } from "./sqlite-transaction";
import { writeLockFirst } from "./write-lock-first";

export type Db = PrismaClient;

export interface OpenDatabaseOptions {
  /** SQLite: the connection's page cache, in KiB (PRAGMA cache_size); better-sqlite3 builds SQLite with 16 MB. */
  pageCacheKiB?: number;
  /**
   * SQLite: the connection checkpoints the WAL when a commit leaves it longer than about this many bytes (PRAGMA
   * wal_autocheckpoint, in pages of the database's size; SQLite's default is 1,000 pages).
   */
  walCheckpointBytes?: number;
  /**
   * A folder where the plans of the client's reads are kept between processes, and its query compiler built only when
   * a query is not among them (query-plan-store.ts). For short-lived processes that open the database: the CLI's.
   */
  queryPlanFolder?: string;
  /**
   * SQLite: a folder where an empty migrated database is kept, which a database that does not exist yet is made a copy
   * of (new-database.ts). For short-lived processes: the CLI's.
   */
  newDatabaseFolder?: string;
}

/**
 * How the CLI's processes (runs, imports, the dashboard's worker process, exports) open SQLite: they write or read the
 * database once through, in bulk, unlike the dashboard server.
 *
 * The page cache: a 20,000-item run (its dataset alone is ~60 MB) filled 16 MB with pages it does not read again (and
 * the import before it had filled them already); what is evicted stays in the OS's file cache. Peak RSS, 20,000 / 256:
 * 242-250 MB with 16 MB, 220-238 MB with 4 MB set once the run began (2,000 / 64: 171-180 → 167-175 MB; CPU within
 * noise over five alternating runs); with the request bodies encoded once (lib/model/chat-request-body.ts) 212-218 MB,
 * and with 4 MB from the open on 202-205 MB. The server keeps 16 MB: its explorer queries were ~7% slower with 4 MB
 * (`npm run bench:items`, sums of the p50s over two runs each).
 *
 * The checkpoints: a commit that leaves the WAL past 1,000 pages (SQLite's default) copies them into the database file
 * and fsyncs it, and better-sqlite3 being synchronous, the event loop waits. A 20,000-item run (~80 MB of dataset, then
 * ~85 MB of results, its index pages written again by every batch) made ~87 of them: strace counted 268 fsyncs taking
 * 1.4-2.9 s of the main thread. Past 10,000 pages of 4 KB (a WAL of up to ~40 MB on disk; the bound is kept in bytes,
 * so a database with 16 KB pages checkpoints every 2,500) it counted 42 (1.1 s), and fewer
 * copies of the same index pages: 20,000 / 256, four alternating runs, user+sys 28.8 / 30.5 / 28.6 / 26.1 s against
 * 30.8 / 29.4 / 32.4 / 29.3 s. (Checkpointing on a thread of its own instead took no less CPU: two cores, the model
 * server on one.) The page of a commit is in the WAL before the commit returns either way, so durability is unchanged.
 */
export const CLI_CONNECTION: OpenDatabaseOptions = { pageCacheKiB: 4_000, walCheckpointBytes: 10_000 * 4_096 };

// Where each engine's generated client (generated/prisma*/internal/class.ts) imports its query compiler's wasm from.
const QUERY_COMPILER_WASM: Record<ReturnType<typeof databaseEngine>, CompilerWasmSource> = {
  sqlite: () => import("@prisma/client/runtime/query_compiler_bg.sqlite.wasm-base64.mjs"),
  postgresql: () => import("@prisma/client/runtime/query_compiler_bg.postgresql.wasm-base64.mjs"),
};

/**
 * A client on the database of the URL, with its migrations applied: SQLite for `file:…` (at once, here), PostgreSQL for
 * `postgresql://…` (when it first connects; see postgres-client.ts).
 */
export function openDatabase(url: string = resolveDatabaseUrl(), options: OpenDatabaseOptions = {}): Db {
  const engine = databaseEngine(url);
  const db = engine === "postgresql" ? openPostgresDatabase(url) : openSqliteDatabase(url, options);
  if (options.queryPlanFolder !== undefined) keepQueryPlansIn(db, options.queryPlanFolder, QUERY_COMPILER_WASM[engine]);
  return db;
}

function openSqliteDatabase(url: string, { pageCacheKiB, walCheckpointBytes, newDatabaseFolder }: OpenDatabaseOptions): Db {
  cacheQueryPlans(QueryCompiler);
  const path = databaseFilePath(url);
  const copied = newDatabaseFolder === undefined ? null : createDatabaseFromTemplate(path, newDatabaseFolder);
  for (const name of copied ?? []) logMigrationLine(`skillboard: applied database migration ${name}`);
  // A copy holds every migration there is (its template is the current migrations'), and a new database's page size.
  const pageBytes = copied ? NEW_DATABASE_PAGE_BYTES : applyMigrations(path).pageBytes;
  // busy timeout: another process (the dashboard, a second CLI) may hold the write lock briefly.
  const factory = new PrismaBetterSQLite3({ url: `file:${path}`, timeout: 15_000 });
  const pragmas = [
    ...(pageCacheKiB !== undefined ? [`PRAGMA cache_size = -${Math.trunc(pageCacheKiB)}`] : []),
    ...(walCheckpointBytes !== undefined ? [`PRAGMA wal_autocheckpoint = ${Math.max(1, Math.round(walCheckpointBytes / pageBytes))}`] : []),
  ];
  if (pragmas.length > 0) onConnect(factory, pragmas.join("; "));
  const adapter = writeLockFirst(factory);
  const db = new PrismaClient({ adapter });
  bindSqliteConnection(db, adapter);
  registerEngine(db, "sqlite");
  return db;
}

/** Runs `script` on the connection as the adapter opens it. */
function onConnect(factory: PrismaBetterSQLite3, script: string): void {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    await adapter.executeScript(script);
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
