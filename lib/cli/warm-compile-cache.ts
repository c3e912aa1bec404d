import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { prepareDatabaseTemplate } from "../db";

/** The internal command `npm run build` ends with (package.json); not in the usage, as no user needs to type it. */
export const WARM_COMPILE_CACHE_COMMAND = "__warm-compile-cache";

/**
 * Loads every module of the CLI bundle this runs from, so that Node's compile cache (scripts/cli.mjs) holds them all
 * before the first real command. Without it, the first command after an install built the bundle and then compiled
 * every module it loaded: `skill list` took 0.92–1.26 s against 0.46–0.65 s, and the first 2,000-item `run` waited
 * 1.07–1.16 s for its first model request against 0.61–0.68 s (three fresh builds each way). A command run for the
 * first time later (the first `run` after some `skill list`s) paid again for the modules only it loads.
 *
 * A module of the bundle does nothing when loaded but define what it exports (main.mjs, which runs the command, is
 * loaded already), so loading them all is safe. The SQLite driver lives in node_modules (a native module, kept out of
 * the bundle) and loads the rest of itself when a first database is opened: an in-memory one is. The PostgreSQL
 * packages are left to the first command on PostgreSQL (lib/db/postgres-packages.ts). Run from lib/ through tsx there
 * is no bundle, and only the driver is loaded.
 *
 * It also makes the empty migrated database that a new one is copied from (lib/db/new-database.ts), in `cacheFolder`
 * (the compile cache's folder, when Node keeps one), so that the first command on a new database need not.
 */
export async function warmCompileCache(cacheFolder: string | undefined): Promise<number> {
  const folder = dirname(fileURLToPath(import.meta.url));
  const modules = readdirSync(folder).filter((name) => name.endsWith(".mjs") && name !== "main.mjs").sort();
  for (const name of modules) await import(pathToFileURL(join(folder, name)).href);
  const Database = createRequire(import.meta.url)("better-sqlite3") as typeof import("better-sqlite3");
  new Database(":memory:").close();
  if (cacheFolder !== undefined) prepareDatabaseTemplate(cacheFolder);
  return 0;
}
