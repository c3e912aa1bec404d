import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

export const DEFAULT_DATABASE_URL = "file:./data/skillboard.db";

/** DATABASE_URL or the embedded default; relative paths are relative to the working directory (the project root). */
export function resolveDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  if (!url.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be a SQLite file URL (file:./data/skillboard.db), got "${url.split(":")[0]}:…"`);
  }
  return url;
}

/** The filesystem path of a `file:` URL, with its folder created so a fresh checkout just works. */
export function databaseFilePath(url: string): string {
  const raw = url.slice("file:".length).split("?")[0] ?? "";
  const path = isAbsolute(raw) ? raw : resolve(/*turbopackIgnore: true*/ process.cwd(), raw);
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

/** The data folder: where the SQLite file lives. Agent runs keep their workspaces under `<data dir>/runs/`. */
export function dataDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return dirname(databaseFilePath(resolveDatabaseUrl(env)));
}
