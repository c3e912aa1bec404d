// PostgreSQL's migrations are applied when a client first connects, once, however many processes start at once.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { listPgMigrations } from "../../scripts/pg-schema";
import { TEST_ENGINE } from "../support/test-db";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new, empty database on the test cluster (not a copy of the migrated template). */
async function emptyDatabase(): Promise<string> {
  const server = inject("pgServerUrl");
  const name = `empty_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: `${server}postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  cleanups.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  return `${server}${name}`;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.runIf(TEST_ENGINE === "postgresql")("migrations on PostgreSQL", () => {
  it("are applied once when several processes open the same new database at the same moment", async () => {
    const url = await emptyDatabase();
    const dir = mkdtempSync(join(tmpdir(), "skillboard-pg-migrate-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const script = join(dir, "open.mjs");
    writeFileSync(
      script,
      [
        `import { openDatabase } from ${JSON.stringify(resolve("lib/db/client.ts"))};`,
        "const db = openDatabase(process.env.DATABASE_URL);",
        // The first query connects, which applies the migrations first.
        'process.stdout.write(JSON.stringify({ skills: await db.skill.count() }) + "\\n");',
        "await db.$disconnect();",
      ].join("\n"),
    );
    const runs = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => child.once("exit", (code) => done({ code, stdout, stderr })));
    });
    const results = await Promise.all(runs);
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0, stdout: '{"skills":0}\n' });
    // One process applied them (and said so on stderr); the others found them applied.
    const announced = results.flatMap((result) => result.stderr.match(/applied database migration \S+/g) ?? []);
    expect(announced).toEqual(listPgMigrations().map((name) => `applied database migration ${name}`));
    const recorded = await query<{ migration_name: string }>(url, `SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(recorded.map((row) => row.migration_name)).toEqual(listPgMigrations());
  }, 60_000);

  it("leave nothing behind when one fails, and say which", async () => {
    const url = await emptyDatabase();
    // A table in the way of the baseline's first CREATE TABLE.
    await query(url, `CREATE TABLE "Skill" ("id" INTEGER)`);
    const { applyPostgresMigrations } = await import("@/lib/db/migrate-postgres");
    await expect(applyPostgresMigrations(url, () => {})).rejects.toThrow(/database migration 20261201050001_postgresql_baseline failed: relation "Skill" already exists/);
    const tables = await query<{ table_name: string }>(url, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`);
    expect(tables.map((row) => row.table_name)).toEqual(["Skill", "_prisma_migrations"]);
    expect(await query(url, `SELECT * FROM "_prisma_migrations"`)).toEqual([]);
  });
});
