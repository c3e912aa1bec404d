import type { DatabaseEngine } from "./database-url";

// Kept on globalThis for the same reason as sqlite-transaction.ts's registry: Next may load this module more than once.
const engines = ((globalThis as unknown as { __skillboardDbEngines?: WeakMap<object, DatabaseEngine> }).__skillboardDbEngines ??= new WeakMap());

/** Called by openDatabase (and for clients that stand for a transaction of one it opened). */
export function registerEngine(db: object, engine: DatabaseEngine): void {
  engines.set(db, engine);
}

/**
 * Which engine a client opened by openDatabase talks to: where SQL differs between SQLite and PostgreSQL (the explorer's
 * search, bulk writes), the code asks this, so each difference is chosen in one place.
 */
export function engineOf(db: object): DatabaseEngine {
  const engine = engines.get(db);
  if (!engine) throw new Error("engineOf: the client was not opened by openDatabase");
  return engine;
}
