/**
 * The PostgreSQL copy of the data model: prisma/postgresql/schema.prisma is made from prisma/schema.prisma (the one
 * source) by swapping the provider and adding what only PostgreSQL has; never edit it by hand.
 *
 *   npm run -s db:pg -- generate            rewrite prisma/postgresql/schema.prisma
 *   npm run -s db:pg -- check               exit 1 if it is not what schema.prisma gives, or if the PostgreSQL migrations
 *                                           do not build exactly that schema (also tests/db/pg-schema.test.ts)
 *   npm run -s db:pg -- migration <name>    after editing schema.prisma (and writing prisma/migrations/<name> for SQLite):
 *                                           write prisma/postgresql/migrations/<name>/migration.sql, the step from the
 *                                           committed PostgreSQL schema to the new one, then rewrite that schema
 *
 * The SQL comes from `prisma migrate diff`, with every text column given COLLATE "C" so PostgreSQL sorts and compares
 * text in byte order, as SQLite does, whatever the database's own locale is. Prisma's JS schema engine needs a
 * PostgreSQL server to talk to even for a diff of two schema files (it reads nothing from it): DATABASE_URL when it is
 * a postgresql:// URL, otherwise a throwaway local cluster (tests/support/pg-cluster.ts, under a second).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { applyPostgresMigrations } from "../lib/db/migrate-postgres";
import { startPgCluster } from "../tests/support/pg-cluster";

const ROOT = resolve(import.meta.dirname, "..");
export const SQLITE_SCHEMA = join(ROOT, "prisma", "schema.prisma");
export const PG_SCHEMA = join(ROOT, "prisma", "postgresql", "schema.prisma");
export const PG_MIGRATIONS = join(ROOT, "prisma", "postgresql", "migrations");

const HEADER = `// GENERATED from prisma/schema.prisma by scripts/pg-schema.ts (npm run -s db:pg -- generate): do not edit.
// The same data model on PostgreSQL; its migrations are in prisma/postgresql/migrations.
`;

/** Text columns the item explorer searches: a trigram index each (pg_trgm), for substring search with ILIKE. */
const TRIGRAM_COLUMNS = ["question", "goldAnswersJson", "predictedAnswer", "response"];

/** One replacement that must match exactly once, so a change to schema.prisma that this script misses fails loudly. */
function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = text.match(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`));
  if (matches?.length !== 1) throw new Error(`prisma/schema.prisma: expected one ${what}, found ${matches?.length ?? 0}`);
  return text.replace(pattern, replacement);
}

export function postgresSchema(sqlite: string): string {
  let text = sqlite.replace(/^(\/\/[^\n]*\n)+\n?/, "");
  text = replaceOnce(text, /output\s*=\s*"\.\.\/generated\/prisma"/, `output          = "../../generated/prisma-pg"\n  previewFeatures = ["postgresqlExtensions"]`, "generator output");
  text = replaceOnce(text, /provider = "sqlite"/, `provider   = "postgresql"\n  extensions = [pg_trgm]`, "sqlite provider");
  text = replaceOnce(text, /url\s*=\s*"file:[^"]*"/, `url        = "postgresql://localhost:5432/skillboard"`, "datasource url");
  const indexes = TRIGRAM_COLUMNS.map((column) => `  @@index([${column}(ops: raw("gin_trgm_ops"))], type: Gin, map: "RunResult_${column}_trgm_idx")`).join("\n");
  text = replaceOnce(
    text,
    /(model RunResult \{[\s\S]*?)\n\}/,
    `$1\n  /// PostgreSQL only: the explorer's search (lib/db/explorer-search.ts); SQLite has the FTS5 table "RunResultSearch".\n${indexes}\n}`,
    "RunResult model",
  );
  return HEADER + text;
}

/** Byte-order text, as SQLite compares it: every TEXT column of the generated SQL gets COLLATE "C". */
export function withByteOrderText(sql: string): string {
  return sql.replace(/ TEXT(?= NOT NULL| DEFAULT|,|\n|;)/g, ` TEXT COLLATE "C"`);
}

/** Runs `work` with a PostgreSQL server's URL (database "postgres"): DATABASE_URL's, or a throwaway cluster's. */
async function withServer<T>(work: (url: string) => Promise<T>): Promise<T> {
  const given = process.env.DATABASE_URL?.trim();
  if (given && /^postgres(ql)?:\/\//.test(given)) return work(given);
  const cluster = await startPgCluster();
  try {
    return await work(cluster.url("postgres"));
  } finally {
    cluster.stop();
  }
}

/** `prisma migrate diff … --script` (Prisma's schema engine talks to the server `url`, reading nothing from it). */
function migrateDiff(url: string, args: string[]): string {
  return execFileSync(join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "diff", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATABASE_URL: url },
  });
}

/** The SQL from the schema `fromSchemaText` (null: an empty database) to `toSchemaText`. */
export async function postgresMigrationSql(fromSchemaText: string | null, toSchemaText: string, serverUrl?: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-pg-schema-"));
  try {
    const to = join(dir, "to.prisma");
    writeFileSync(to, toSchemaText);
    let from = ["--from-empty"];
    if (fromSchemaText !== null) {
      writeFileSync(join(dir, "from.prisma"), fromSchemaText);
      from = ["--from-schema-datamodel", join(dir, "from.prisma")];
    }
    const args = [...from, "--to-schema-datamodel", to, "--script"];
    return withByteOrderText(serverUrl ? migrateDiff(serverUrl, args) : await withServer(async (url) => migrateDiff(url, args)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What differs between a database built by prisma/postgresql/migrations and one built in one step from the PostgreSQL
 * schema (the committed one unless given), both on the server `serverUrl` in databases made and dropped here: columns
 * with their types, nullability, defaults and collations, indexes, constraints, extensions. Empty when in step.
 * (Prisma's own drift check, `migrate diff --from-migrations`, cannot read a PostgreSQL catalog through the driver
 * adapter in 6.19: "Column type 'name' could not be deserialized".)
 */
export async function migrationDrift(serverUrl: string, schemaText = readFileSync(PG_SCHEMA, "utf8")): Promise<string[]> {
  const suffix = `${process.pid}_${Date.now()}`;
  const migrated = `drift_migrated_${suffix}`;
  const fresh = `drift_fresh_${suffix}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const urlOf = (database: string) => Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();
  try {
    await admin.query(`CREATE DATABASE ${migrated}`);
    await admin.query(`CREATE DATABASE ${fresh}`);
    await applyPostgresMigrations(urlOf(migrated), () => {});
    const oneStep = await postgresMigrationSql(null, schemaText, serverUrl);
    const client = new pg.Client({ connectionString: urlOf(fresh) });
    await client.connect();
    await client.query("SET client_min_messages = warning");
    await client.query(oneStep).finally(() => client.end());
    const [a, b] = await Promise.all([catalog(urlOf(migrated)), catalog(urlOf(fresh))]);
    return [...a.filter((line) => !b.includes(line)).map((line) => `only the migrations make: ${line}`),
      ...b.filter((line) => !a.includes(line)).map((line) => `only the schema makes: ${line}`)];
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${migrated} WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${fresh} WITH (FORCE)`);
    await admin.end();
  }
}

async function catalog(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const queries = [
      `SELECT format('column %s.%s %s null=%s default=%s collate=%s', table_name, column_name, data_type, is_nullable, column_default, collation_name) AS line
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
      `SELECT format('index %s', indexdef) AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
      `SELECT format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) AS line
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_prisma_migrations'`,
      `SELECT format('extension %s', extname) AS line FROM pg_extension`,
    ];
    const lines: string[] = [];
    for (const sql of queries) lines.push(...(await client.query<{ line: string }>(sql)).rows.map((row) => row.line));
    return lines.sort();
  } finally {
    await client.end();
  }
}

export function listPgMigrations(): string[] {
  if (!existsSync(PG_MIGRATIONS)) return [];
  return readdirSync(PG_MIGRATIONS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(PG_MIGRATIONS, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}

async function main(argv: string[]): Promise<void> {
  const [command, name] = argv;
  const expected = postgresSchema(readFileSync(SQLITE_SCHEMA, "utf8"));
  const current = existsSync(PG_SCHEMA) ? readFileSync(PG_SCHEMA, "utf8") : null;
  if (command === "generate") {
    writeFileSync(PG_SCHEMA, expected);
  } else if (command === "check") {
    if (current !== expected) {
      process.stderr.write("prisma/postgresql/schema.prisma is not what prisma/schema.prisma gives: run `npm run -s db:pg -- migration <name>`\n");
      process.exit(1);
    }
    const drift = await withServer(migrationDrift);
    if (drift.length > 0) {
      process.stderr.write(`prisma/postgresql/migrations do not build prisma/postgresql/schema.prisma:\n${drift.join("\n")}\n`);
      process.exit(1);
    }
  } else if (command === "migration" && name && /^\d{14}_[a-z0-9_]+$/.test(name)) {
    const folder = join(PG_MIGRATIONS, name);
    if (existsSync(folder)) throw new Error(`${folder} exists already`);
    // The first migration is the baseline: the whole schema from an empty database.
    const sql = await postgresMigrationSql(listPgMigrations().length === 0 ? null : current, expected);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "migration.sql"), sql);
    writeFileSync(PG_SCHEMA, expected);
    process.stderr.write(`wrote prisma/postgresql/migrations/${name}/migration.sql and prisma/postgresql/schema.prisma\n`);
  } else {
    process.stderr.write("usage: npm run -s db:pg -- generate | check | migration <yyyymmddhhmmss_name>\n");
    process.exit(2);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main(process.argv.slice(2));
