import type { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;

// A write of nothing: it takes SQLite's write lock (waiting out the busy timeout) without changing a row.
const TAKE_WRITE_LOCK = { sql: `UPDATE "_prisma_migrations" SET "id" = "id" WHERE 0`, args: [], argTypes: [] };
const ROLLBACK = { sql: "ROLLBACK", args: [], argTypes: [] };

/**
 * Makes every Prisma transaction on this adapter take the write lock when it begins, as BEGIN IMMEDIATE would.
 *
 * The adapter begins with a plain (deferred) BEGIN. In WAL mode a deferred transaction that has read, then writes
 * after another connection committed, fails at once with SQLITE_BUSY: its snapshot is stale, and the busy timeout
 * does not apply. The dashboard, its worker and a CLI write to one file, so that happened (e.g. adding a skill
 * version while the server seeded its demo). Locking first makes each transaction wait its turn instead.
 */
export function writeLockFirst(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => lockOnBegin(await connect());
  return factory;
}

function lockOnBegin(adapter: Adapter): Adapter {
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => {
    const transaction = await startTransaction(isolationLevel);
    try {
      await transaction.executeRaw(TAKE_WRITE_LOCK);
    } catch (error) {
      // BEGIN succeeded, so end it and hand the connection back before reporting the busy database.
      await transaction.executeRaw(ROLLBACK).catch(() => undefined);
      await transaction.rollback();
      throw error;
    }
    return transaction;
  };
  return adapter;
}
