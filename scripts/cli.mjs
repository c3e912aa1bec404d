#!/usr/bin/env node
// `npm run -s cli -- …`: the CLI as plain JavaScript. Running lib/cli/main.ts through tsx took ~0.75 s and ~160 MB
// before the first line of work (`skill list` on an empty database); its esbuild bundle starts in ~0.3 s and ~115 MB.
// The bundle (dist/cli.mjs, dependencies left as imports of node_modules) is rebuilt whenever a source it is made
// from is newer, so an edit to lib/ is never run stale. esbuild comes with the project (tsx uses it).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BUNDLE = join(ROOT, "dist", "cli.mjs");
// What the bundle is made from: the core, and the generated Prisma client (it is bundled too).
const SOURCES = [join(ROOT, "lib"), join(ROOT, "generated", "prisma")];

function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function bundleIsStale() {
  const built = statSync(BUNDLE, { throwIfNoEntry: false });
  return !built || SOURCES.some((source) => newestMtime(source) > built.mtimeMs);
}

if (bundleIsStale()) {
  // Written beside, then renamed: two CLIs starting at once never run a half-written bundle.
  const partial = `${BUNDLE}.${process.pid}.tmp`;
  const esbuild = join(ROOT, "node_modules", ".bin", "esbuild");
  const build = spawnSync(
    esbuild,
    [join(ROOT, "lib/cli/main.ts"), "--bundle", "--platform=node", "--format=esm", "--target=node20", "--packages=external", `--outfile=${partial}`, "--log-level=warning"],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  if (build.status !== 0 || !existsSync(partial)) {
    process.stderr.write(`skillboard: could not build the CLI bundle (${esbuild} exited with ${build.status ?? build.signal})\n`);
    process.exit(1);
  }
  renameSync(partial, BUNDLE);
}

await import(pathToFileURL(BUNDLE).href);
