import type { Db } from "@/lib/db";
import { TEST_ENGINE } from "./test-db";

/**
 * Makes the real database refuse inserts into `table` whose new row meets `when` (SQL over NEW, both engines' syntax),
 * failing the statement with `message`, as a full disk would partway through a write: a trigger, on SQLite or
 * PostgreSQL. Returns what removes it again.
 */
export async function failInserts(db: Db, input: { name: string; table: string; when?: string; message: string }): Promise<() => Promise<void>> {
  const { name, table, when = "TRUE", message } = input;
  if (TEST_ENGINE === "sqlite") {
    await db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" WHEN ${when} BEGIN SELECT RAISE(ABORT, '${message}'); END`);
    return async () => void (await db.$executeRawUnsafe(`DROP TRIGGER ${name}`));
  }
  await db.$executeRawUnsafe(
    `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF ${when} THEN RAISE EXCEPTION '${message}'; END IF; RETURN NEW; END $$`,
  );
  await db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER ${name} ON "${table}"`);
    await db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
  };
}
