// Production start command (`npm start`): applies the host policy, then runs `next start` in the
// foreground. Listening beyond loopback without SKILLBOARD_TOKEN exits with code 2 before anything starts.
//
// Plain JavaScript run by bare `node` (no TypeScript loader at start-up): the policy it needs lives in
// lib/auth/host-policy.mjs, typed by a .d.mts file, so the proxy and the tests share the same code.
//
// Environment files (.env, .env.production, .env.local, ...) are loaded first with Next's own loader,
// so the policy sees exactly the variables the server will see. Exits as the server did: with its
// exit code, or from the same signal (a plain `kill <pid>` stops both processes).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import { checkStartPolicy } from "../lib/auth/host-policy.mjs";

const projectDir = fileURLToPath(new URL("..", import.meta.url));

// @next/env ships with next (an exact dependency of it); resolve it through next so hoisting does not matter.
const requireFromNext = createRequire(createRequire(import.meta.url).resolve("next/package.json"));
const { loadEnvConfig } = requireFromNext("@next/env");
loadEnvConfig(projectDir, false, { info: () => {}, error: (...args) => console.error(...args) });

const policy = checkStartPolicy(process.env);
if (!policy.ok) {
  console.error(`skillboard: ${policy.message}`);
  process.exit(2);
}

const nextBin = fileURLToPath(new URL("../node_modules/.bin/next", import.meta.url));
const server = spawn(nextBin, ["start", "-H", policy.host, "-p", String(policy.port)], {
  cwd: projectDir,
  stdio: "inherit",
});

// Ctrl-C in a terminal reaches both processes; `kill <pid>` reaches only this one, so pass it on.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => server.kill(signal));
}

server.on("error", (error) => {
  console.error(`skillboard: could not run ${nextBin}: ${error.message}`);
  process.exit(1);
});

server.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so a shell or supervisor sees what happened to the server itself.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0));
});
