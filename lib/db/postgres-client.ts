import type { PrismaPg } from "@prisma/adapter-pg";
import { QueryCompiler } from "@prisma/client/runtime/query_compiler_bg.postgresql.mjs";
import type pg from "pg";
import { loadPg, loadPrismaPg } from "./postgres-packages";
import { PrismaClient } from "../../generated/prisma-pg/client";
import type { Db } from "./client";
import { registerEngine } from "./engine";
import { applyPostgresMigrations } from "./migrate-postgres";
import { cacheQueryPlans } from "./query-plan-cache";

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;

/** The advisory lock every transaction takes when it begins (serialiseTransactions); the migrations take another. */
const TRANSACTION_LOCK = 7_265_146_701;

/**
 * A client on a PostgreSQL database. Synchronous like the SQLite client: the migrations are applied when it first
 * connects (its first query, or `$connect()`), so nothing runs on an unmigrated database. The generated PostgreSQL
 * client has the same models as the SQLite one (one data model, scripts/pg-schema.ts), so it is typed as Db.
 */
export function openPostgresDatabase(url: string): Db {
  cacheQueryPlans(QueryCompiler);
  const pool = new (loadPg().Pool)({ connectionString: url, max: Number(process.env.SKILLBOARD_PG_POOL_MAX) || 10 });
  const factory = new (loadPrismaPg().PrismaPg)(pool, { disposeExternalPool: true });
  const connect = factory.connect.bind(factory);
  let migrated: Promise<unknown> | null = null;
  factory.connect = async () => {
    migrated ??= applyPostgresMigrations(url);
    await migrated;
    return serialiseTransactions(await connect());
  };
  const db = new PrismaClient({ adapter: factory }) as unknown as Db;
  registerEngine(db, "postgresql");
  pools.set(db, { pool, url, migrated: () => (migrated ??= applyPostgresMigrations(url)) });
  return db;
}

const pools = ((globalThis as unknown as { __skillboardPgPools?: WeakMap<object, PoolEntry> }).__skillboardPgPools ??= new WeakMap());
interface PoolEntry {
  pool: pg.Pool;
  url: string;
  migrated: () => Promise<unknown>;
}

/** The database URL of a PostgreSQL client (the queue opens its own connections to the same database). */
export function postgresUrlOf(db: Db): string {
  return poolOf(db).url;
}

function poolOf(db: Db): PoolEntry {
  const entry = pools.get(db);
  if (!entry) throw new Error("not a PostgreSQL client opened by openDatabase");
  return entry;
}

/**
 * A transaction on the client's own pool that does NOT take the global transaction lock: for the writes several
 * worker processes make at once (results of one run, its workers' shares), which lock what they need themselves (the
 * run's row, FOR UPDATE), so runs do not wait for each other. SQL with `$1…` placeholders.
 */
export async function pgTransaction<T>(db: Db, work: (query: PgQuery) => Promise<T>): Promise<T> {
  const entry = poolOf(db);
  await entry.migrated();
  const client = await entry.pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(async (sql, values = []) => (await client.query(sql, values as unknown[])).rows);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export type PgQuery = (sql: string, values?: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Every transaction takes one advisory lock when it begins (held to its end), so transactions run one at a time as on
 * SQLite, whose write lock each takes first (write-lock-first.ts). The code's read-then-write transactions (the demo
 * seed's "still empty?", claiming a run, renumbering results) rely on that; single statements do not wait for it.
 */
function serialiseTransactions(adapter: Adapter): Adapter {
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => {
    const transaction = await startTransaction(isolationLevel);
    try {
      await transaction.executeRaw({ sql: `SELECT pg_advisory_xact_lock(${TRANSACTION_LOCK})`, args: [], argTypes: [] });
    } catch (error) {
      await transaction.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined);
      await transaction.rollback();
      throw error;
    }
    return transaction;
  };
  return adapter;
}
