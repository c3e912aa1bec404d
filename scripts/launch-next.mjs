// What `npm start` and `npm run dev` share: load the environment files as Next will, apply the host and token policy
// (lib/auth/host-policy.mjs), then run `next start` or `next dev` in the foreground on the host and port it allows.
// Listening beyond loopback without SKILLBOARD_TOKEN, or with a token too weak to keep anyone out, exits with code 2
// before anything starts.
//
// Plain JavaScript run by bare `node` (no TypeScript loader at start-up); the policy is typed by a .d.mts file, so the
// proxy and the tests share the same code. Exits as the server did: with its exit code, or from the same signal
// (a plain `kill <pid>` stops both processes).
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import { checkStartPolicy } from "../lib/auth/host-policy.mjs";

const projectDir = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/** After a stop signal, how long the server has to finish before it is killed: a stop must always stop it. */
const STOP_GRACE_MS = 10_000;

/** `mode`: "start" (production build) or "dev". Never returns: the process ends when the server does. */
export function launchNext(mode) {
  // A reader of our output that went away (`npm start | head`) must not turn into an uncaught exception here.
  const closed = new Set();
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => closed.add(stream));

  // @next/env ships with next (an exact dependency of it); resolve it through next so hoisting does not matter.
  const requireFromNext = createRequire(createRequire(import.meta.url).resolve("next/package.json"));
  const { loadEnvConfig } = requireFromNext("@next/env");
  loadEnvConfig(projectDir, mode === "dev", { info: () => {}, error: (...args) => console.error(...args) });

  const policy = checkStartPolicy(process.env);
  if (!policy.ok) {
    console.error(`skillboard: ${policy.message}`);
    process.exit(2);
  }

  if (mode === "dev") {
    // The database client is generated from the schema, which a developer may have just changed.
    const generated = spawnSync(bin("prisma"), ["generate"], { cwd: projectDir, stdio: "inherit" });
    if (generated.status !== 0) process.exit(generated.status ?? 1);
  }

  const nextBin = bin("next");
  // A terminal is passed on as it is (Next colours its output there). A pipe or a file is relayed: when its reader goes
  // away, the server's output is dropped here and the server never meets a closed pipe (EPIPE), whatever it logs.
  const relay = (stream) => (stream.isTTY ? "inherit" : "pipe");
  const server = spawn(nextBin, [mode, "-H", policy.host, "-p", String(policy.port)], {
    cwd: projectDir,
    stdio: ["inherit", relay(process.stdout), relay(process.stderr)],
  });
  for (const [from, to] of [[server.stdout, process.stdout], [server.stderr, process.stderr]]) {
    from?.on("data", (chunk) => {
      if (!closed.has(to)) to.write(chunk);
    });
  }

  // Ctrl-C in a terminal reaches both processes; `kill <pid>` reaches only this one, so pass it on.
  let killTimer;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      server.kill(signal);
      killTimer ??= setTimeout(() => server.kill("SIGKILL"), STOP_GRACE_MS);
    });
  }

  server.on("error", (error) => {
    console.error(`skillboard: could not run ${nextBin}: ${error.message}`);
    process.exit(1);
  });

  // "close": the server has exited and everything it wrote has been relayed.
  server.on("close", (code, signal) => {
    clearTimeout(killTimer);
    if (signal) {
      // Die of the same signal, so a shell or supervisor sees what happened to the server itself.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0));
  });
}
