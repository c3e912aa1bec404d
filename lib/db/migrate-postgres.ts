import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadPg } from "./postgres-packages";
import { listMigrations, type MigrationReport } from "./migrate";

const MIGRATIONS_DIR = resolve(/*turbopackIgnore: true*/ process.cwd(), "prisma", "postgresql", "migrations");

// The lock `prisma migrate deploy` takes on PostgreSQL, so our starters and the Prisma CLI wait for each other too.
const MIGRATION_LOCK = 72707369;

// Same table as `prisma migrate deploy` keeps on PostgreSQL, so either tool can take over a database the other made.
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies pending migrations from prisma/postgresql/migrations, each in its own transaction (PostgreSQL's DDL is
 * transactional, so a failed migration leaves nothing behind). Processes that start at once serialise on an advisory
 * lock held for the whole pass: the second finds the migrations applied by the first. Notices go to stderr.
 */
export async function applyPostgresMigrations(url: string, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<MigrationReport> {
  const names = listMigrations(MIGRATIONS_DIR);
  const client = new (loadPg().Client)({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    // Quiet: "relation already exists, skipping" and the like are not worth the user's attention.
    await client.query("SET client_min_messages = warning");
    await client.query(MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
    );
    const done = new Set(rows.map((row) => row.migration_name));
    const applied: string[] = [];
    for (const name of names) {
      if (done.has(name)) continue;
      const sql = readFileSync(join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");
      const startedAt = new Date();
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, $4, 1)`,
          [randomUUID(), createHash("sha256").update(sql).digest("hex"), name, startedAt],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`database migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(name);
    }
    for (const name of applied) log(`skillboard: applied database migration ${name}`);
    return { applied };
  } finally {
    // Ending the session releases the advisory lock.
    await client.end();
  }
}
