import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../generated/prisma-pg/client";
import type { Db } from "./client";
import { registerEngine } from "./engine";
import { applyPostgresMigrations } from "./migrate-postgres";

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;

/** The advisory lock every transaction takes when it begins (serialiseTransactions); the migrations take another. */
const TRANSACTION_LOCK = 7_265_146_701;

/**
 * A client on a PostgreSQL database. Synchronous like the SQLite client: the migrations are applied when it first
 * connects (its first query, or `$connect()`), so nothing runs on an unmigrated database. The generated PostgreSQL
 * client has the same models as the SQLite one (one data model, scripts/pg-schema.ts), so it is typed as Db.
 */
export function openPostgresDatabase(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.SKILLBOARD_PG_POOL_MAX) || 10 });
  const factory = new PrismaPg(pool, { disposeExternalPool: true });
  const connect = factory.connect.bind(factory);
  let migrated: Promise<unknown> | null = null;
  factory.connect = async () => {
    migrated ??= applyPostgresMigrations(url);
    await migrated;
    return serialiseTransactions(await connect());
  };
  const db = new PrismaClient({ adapter: factory }) as unknown as Db;
  registerEngine(db, "postgresql");
  return db;
}

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
