// DATABASE_URL picks the engine: a file: URL (or nothing) is SQLite, a postgresql:// URL PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dataDirectory, databaseEngine, DEFAULT_DATABASE_URL, resolveDatabaseUrl } from "@/lib/db";

const dirs: string[] = [];
/** An environment holding only these variables. */
const env = (vars: Record<string, string> = {}) => vars as NodeJS.ProcessEnv;
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("DATABASE_URL", () => {
  it("keeps SQLite when unset or a file: URL, and selects PostgreSQL for postgresql:// and postgres://", () => {
    expect(resolveDatabaseUrl(env())).toBe(DEFAULT_DATABASE_URL);
    expect(resolveDatabaseUrl(env({ DATABASE_URL: "  " }))).toBe(DEFAULT_DATABASE_URL);
    expect(databaseEngine(resolveDatabaseUrl(env()))).toBe("sqlite");
    expect(databaseEngine("file:/tmp/x.db")).toBe("sqlite");
    expect(databaseEngine(resolveDatabaseUrl(env({ DATABASE_URL: "postgresql://me@db:5432/skillboard" })))).toBe("postgresql");
    expect(databaseEngine("postgres://me@db/skillboard")).toBe("postgresql");
  });

  it("refuses any other URL, naming both forms and never echoing the rest of it (a password)", () => {
    const attempt = () => resolveDatabaseUrl(env({ DATABASE_URL: "mysql://root:hunter2-secret@db/x" }));
    expect(attempt).toThrow(/file:\.\/data\/skillboard\.db.*postgresql:\/\/.*got "mysql:…"/);
    expect(attempt).not.toThrow(/hunter2/);
  });

  it("puts the data folder next to the SQLite file, or in SKILLBOARD_DATA_DIR with PostgreSQL", () => {
    const dir = mkdtempSync(join(tmpdir(), "skillboard-data-"));
    dirs.push(dir);
    expect(dataDirectory(env({ DATABASE_URL: `file:${join(dir, "sub", "s.db")}` }))).toBe(join(dir, "sub"));
    expect(dataDirectory(env({ DATABASE_URL: "postgresql://me@db/skillboard", SKILLBOARD_DATA_DIR: join(dir, "pgdata") }))).toBe(join(dir, "pgdata"));
    expect(dataDirectory(env({ DATABASE_URL: "postgresql://me@db/skillboard" }))).toBe(join(process.cwd(), "data"));
  });
});
