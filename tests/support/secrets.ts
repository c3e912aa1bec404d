/** Checks that secrets appear nowhere: in a text, or in any column of any row of a Skillboard database. */
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { databaseEngine, databaseFilePath } from "@/lib/db";
import { postgresBinDirectory } from "./pg-cluster";

export function expectNoSecret(text: string, secrets: readonly string[], where: string): void {
  for (const secret of secrets) expect(text, `${where} holds ${secret}`).not.toContain(secret);
}

/** Every row of every table, every column, read straight from the SQLite file (or PostgreSQL's pg_dump of the data). */
export function expectNoSecretInDatabase(databaseUrl: string, secrets: readonly string[]): void {
  if (databaseEngine(databaseUrl) === "postgresql") {
    const dump = execFileSync(join(postgresBinDirectory(), "pg_dump"), ["--data-only", "-d", databaseUrl], { encoding: "utf8", maxBuffer: 2 ** 30 });
    expect(dump).toContain('COPY public."RunResult"');
    expectNoSecret(dump, secrets, "the database");
    return;
  }
  const sqlite = new Database(databaseFilePath(databaseUrl), { readonly: true });
  try {
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    expect(tables.length).toBeGreaterThan(5);
    for (const { name } of tables) expectNoSecret(JSON.stringify(sqlite.prepare(`SELECT * FROM "${name}"`).all()), secrets, `table ${name}`);
  } finally {
    sqlite.close();
  }
}
