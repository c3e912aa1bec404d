import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

export const DEFAULT_DATABASE_URL = "file:./data/skillboard.db";

/** The two databases Skillboard runs on: SQLite (embedded, the default) and PostgreSQL (shared by many processes). */
export type DatabaseEngine = "sqlite" | "postgresql";

/**
 * DATABASE_URL or the embedded default; relative paths are relative to the working directory (the project root).
 * `file:…` is SQLite, `postgresql://…` (or `postgres://…`) PostgreSQL.
 */
export function resolveDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  databaseEngine(url);
  return url;
}

export function databaseEngine(url: string): DatabaseEngine {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error(
    `DATABASE_URL must be a SQLite file URL (file:./data/skillboard.db) or a PostgreSQL URL (postgresql://user@host:5432/db), got "${url.split(":")[0]}:…"`,
  );
}

/** The filesystem path of a `file:` URL, with its folder created so a fresh checkout just works. */
export function databaseFilePath(url: string): string {
  const raw = url.slice("file:".length).split("?")[0] ?? "";
  const path = isAbsolute(raw) ? raw : resolve(/*turbopackIgnore: true*/ process.cwd(), raw);
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

/**
 * The data folder: where the SQLite file lives, or with PostgreSQL `SKILLBOARD_DATA_DIR` (default ./data). Agent runs
 * keep their workspaces under `<data dir>/runs/`.
 */
export function dataDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const url = resolveDatabaseUrl(env);
  if (databaseEngine(url) === "sqlite") return dirname(databaseFilePath(url));
  const dir = resolve(/*turbopackIgnore: true*/ process.cwd(), env.SKILLBOARD_DATA_DIR?.trim() || "data");
  mkdirSync(dir, { recursive: true });
  return dir;
}
