import type { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import type { Db } from "./client";

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
export type Sqlite = BetterSqlite3.Database;
export type SqlValue = string | number | null;

// Kept on globalThis: Next's server build may load this module more than once (one copy per chunk), and the copy that
// opened a client must be the one sqliteTransaction finds it in.
const registry = ((globalThis as unknown as { __skillboardSqliteRegistry?: Registry }).__skillboardSqliteRegistry ??= {
  factories: new WeakMap(),
  adapters: new WeakMap(),
  statements: new WeakMap(),
  insideTransactionOf: new WeakMap(),
});
interface Registry {
  factories: WeakMap<Db, PrismaBetterSQLite3>;
  adapters: WeakMap<PrismaBetterSQLite3, Adapter>;
  statements: WeakMap<Sqlite, Map<string, BetterSqlite3.Statement>>;
  /** Clients that stand for an interactive transaction already open on a root client's connection (the demo seed). */
  insideTransactionOf: WeakMap<Db, Db>;
}
const { factories, adapters, statements, insideTransactionOf } = registry;

/** Called by openDatabase: the client's adapter factory, whose connection sqliteTransaction uses. */
export function bindSqliteConnection(db: Db, factory: PrismaBetterSQLite3): void {
  factories.set(db, factory);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapters.set(factory, adapter);
    return adapter;
  };
}

/** `inner` runs its queries inside a Prisma transaction of `root`: sqliteTransaction on it joins that transaction. */
export function markInsideTransaction(inner: Db, root: Db): void {
  insideTransactionOf.set(inner, root);
}

/**
 * Runs `work` synchronously inside one transaction on the Prisma client's own SQLite connection, with prepared
 * statements kept for reuse (see `prepared`). For the writes that store thousands of rows a second: through Prisma each
 * statement of a batch was compiled by its query compiler and prepared anew by the adapter, which took ~0.35 ms of
 * CPU per stored result (compileBatch, requestBatch, executeIO in a profile of a 20,000-item run).
 *
 * The transaction is begun through the adapter, so it waits its turn with Prisma's own transactions (the adapter's
 * mutex) and takes SQLite's write lock first (writeLockFirst); nothing else runs on the connection while `work` runs.
 */
export async function sqliteTransaction<T>(db: Db, work: (sqlite: Sqlite) => T): Promise<T> {
  const root = insideTransactionOf.get(db);
  if (root) return joinOpenTransaction(root, work);
  const factory = factories.get(db);
  if (!factory) throw new Error("sqliteTransaction: the client was not opened by openDatabase");
  if (!adapters.get(factory)) await db.$connect();
  const adapter = adapters.get(factory);
  if (!adapter) throw new Error("sqliteTransaction: the database adapter did not connect");
  const transaction = await adapter.startTransaction();
  // The adapter's transaction keeps its better-sqlite3 handle in `client` (@prisma/adapter-better-sqlite3 6.19).
  const sqlite = (transaction as unknown as { client?: Sqlite }).client;
  try {
    if (!sqlite?.inTransaction) throw new Error("sqliteTransaction: the adapter's transaction has no open SQLite connection");
    const value = work(sqlite);
    prepared(sqlite, "COMMIT").run();
    await transaction.commit();
    return value;
  } catch (error) {
    if (sqlite?.inTransaction) prepared(sqlite, "ROLLBACK").run();
    await transaction.rollback();
    throw error;
  }
}

/** Inside the root client's open transaction (its connection is the one the transaction uses): a savepoint in it. */
async function joinOpenTransaction<T>(root: Db, work: (sqlite: Sqlite) => T): Promise<T> {
  const factory = factories.get(root);
  const adapter = factory && adapters.get(factory);
  const sqlite = (adapter as unknown as { client?: Sqlite } | undefined)?.client;
  if (!sqlite?.inTransaction) throw new Error("sqliteTransaction: the enclosing transaction is not open");
  prepared(sqlite, "SAVEPOINT sqlite_transaction").run();
  try {
    const value = work(sqlite);
    prepared(sqlite, "RELEASE sqlite_transaction").run();
    return value;
  } catch (error) {
    prepared(sqlite, "ROLLBACK TO sqlite_transaction").run();
    prepared(sqlite, "RELEASE sqlite_transaction").run();
    throw error;
  }
}

/** The connection's prepared statement for this SQL, compiled once. */
export function prepared(sqlite: Sqlite, sql: string): BetterSqlite3.Statement {
  let cache = statements.get(sqlite);
  if (!cache) statements.set(sqlite, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = sqlite.prepare(sql)));
  return statement;
}

/** A DateTime as Prisma writes it to SQLite, so that stored values compare alike whoever wrote them. */
export function sqliteDateTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}
