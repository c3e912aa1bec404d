/**
 * The real dashboard for browser tests: a production build (made once, and only when the sources are newer
 * than it), served by `next start` on a free loopback port with a fresh SQLite database in a temp folder.
 *
 *   let server: AppServer;
 *   beforeAll(async () => { server = await startAppServer(); }, BUILD_TIMEOUT_MS);
 *   afterAll(() => server?.stop());
 *
 * (Browser tests use useBrowserApp() from ./browser-app.ts, which does this and launches Chromium.) A test file
 * that starts the server must be named *.server.test.ts or *.browser.test.ts: `npm run test:unit` skips those.
 *
 * The server gets no OPENAI_*, AZURE_OPENAI_* or SKILLBOARD_* variables (nor DATABASE_URL, PORT) from the
 * outer environment; pass what a test needs in `env`. Its instrumentation migrates the fresh database
 * and seeds the demo on boot, so the database is not empty when the first page loads.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NEXT_BIN = join(PROJECT_ROOT, "node_modules", ".bin", "next");
const BUILD_ID = join(PROJECT_ROOT, ".next", "BUILD_ID");
/** Outside .next/, which `next build` empties. */
const BUILD_LOCK = join(PROJECT_ROOT, "test-results", ".next-build.lock");
/** What the build is made from; a file here newer than .next/BUILD_ID means the build is stale. */
const SOURCE_DIRS = ["app", "lib", "prompts", "public"];
const SOURCE_FILES = ["instrumentation.ts", "proxy.ts", "next.config.ts"];

/** For the beforeAll that starts the server: a build takes 30–90 s on 2 cores, and may wait for another file's. */
export const BUILD_TIMEOUT_MS = 600_000;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface AppServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseURL: string;
  port: number;
  /** `file:<dir>/app.db`, the server's database; tests may open it too (SQLite WAL allows that). */
  databaseUrl: string;
  /** Temporary folder of this server, removed by stop(). */
  dir: string;
  /** Everything the server wrote to stdout and stderr so far. */
  logs(): string;
  /** The server process (`next start` run directly, so it is the one process serving). */
  pid: number;
  /** Stops the server, checks that its port is free again, removes `dir`. Safe to call twice. */
  stop(): Promise<void>;
  /** Ends the server with SIGKILL, as a crash or the OOM killer would (no cleanup in the server), then as stop() does. */
  kill(): Promise<void>;
}

export interface AppServerOptions {
  /** Extra environment for the server (applied last, so it may also set DATABASE_URL). */
  env?: Record<string, string>;
}

// Servers still running when the test process exits (a test that forgot stop(), a crash) are killed.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  await ensureBuild();
  const dir = mkdtempSync(join(tmpdir(), "skillboard-app-"));
  const databaseUrl = options.env?.DATABASE_URL ?? `file:${join(dir, "app.db")}`;
  try {
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      try {
        return await launch({ port, dir, databaseUrl, env: options.env ?? {} });
      } catch (error) {
        // Another process took the port between our check and the server's listen: try another one.
        if (error instanceof PortTakenError && attempt < 3) continue;
        throw error;
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

class PortTakenError extends Error {}

async function launch(config: { port: number; dir: string; databaseUrl: string; env: Record<string, string> }): Promise<AppServer> {
  const { port, dir, databaseUrl } = config;
  const baseURL = `http://127.0.0.1:${port}`;
  // `next start` run directly is one process (through npx/npm it would sit under a wrapper that a kill misses).
  const child = spawn(process.execPath, [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: PROJECT_ROOT,
    env: serverEnv({ DATABASE_URL: databaseUrl, ...config.env }) as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const isRunning = () => child.exitCode === null && child.signalCode === null;

  let stopping: Promise<void> | undefined;
  const end = (signal: "SIGTERM" | "SIGKILL") =>
    (stopping ??= (async () => {
      try {
        if (isRunning()) {
          child.kill(signal);
          if ((await Promise.race([exited.then(() => "exited"), sleep(STOP_TIMEOUT_MS)])) !== "exited") {
            child.kill("SIGKILL");
            await exited;
          }
        }
        running.delete(child);
        await waitForPortFree(port);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    })());
  const stop = () => end("SIGTERM");

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!isRunning()) {
      running.delete(child);
      if (/EADDRINUSE/.test(output)) throw new PortTakenError(`port ${port} was taken`);
      throw new Error(`next start exited (code ${child.exitCode ?? child.signalCode}) before answering; its output:\n${output}`);
    }
    try {
      const response = await fetch(`${baseURL}/`, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop().catch(() => {});
      throw new Error(`next start did not answer GET / within ${READY_TIMEOUT_MS / 1000} s; its output:\n${output}`);
    }
    await sleep(100);
  }
  return { baseURL, port, databaseUrl, dir, logs: () => output, pid: child.pid!, stop, kill: () => end("SIGKILL") };
}

/** The outer environment without model credentials or Skillboard settings, for a production server. */
function serverEnv(extra: Record<string, string>, nodeEnv: string | undefined = "production"): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(OPENAI_|AZURE_OPENAI_|SKILLBOARD_)/.test(key)) continue;
    if (key === "DATABASE_URL" || key === "PORT" || key === "HOSTNAME" || key === "NODE_ENV") continue;
    env[key] = value;
  }
  return { ...env, ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}), NEXT_TELEMETRY_DISABLED: "1", ...extra };
}

// ------------------------------------------------------------------------------------------------ build

let building: Promise<void> | undefined;

/** Makes `.next` current: builds when BUILD_ID is missing or older than a source file; once per test process. */
export function ensureBuild(): Promise<void> {
  if (process.env.SKILLBOARD_TEST_PROJECT === "unit") {
    // `npm run test:unit` must stay quick: it never builds (see vitest.config.ts).
    return Promise.reject(
      new Error("this test needs the production build: name its file *.server.test.ts (or *.browser.test.ts) so that only `npm test` runs it"),
    );
  }
  building ??= buildIfStale().catch((error: unknown) => {
    building = undefined;
    throw error;
  });
  return building;
}

function buildIsStale(): boolean {
  if (!existsSync(BUILD_ID)) return true;
  return newestSourceMtime() > statSync(BUILD_ID).mtimeMs;
}

function newestSourceMtime(): number {
  let newest = 0;
  const visit = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== "node_modules") visit(join(path, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const name of [...SOURCE_DIRS, ...SOURCE_FILES]) visit(join(PROJECT_ROOT, name));
  return newest;
}

async function buildIfStale(): Promise<void> {
  if (!buildIsStale()) return;
  // Test files run in parallel workers: one builds, the others wait for it and then find the build current.
  await withFileLock(BUILD_LOCK, async () => {
    if (buildIsStale()) await runBuild();
  });
}

async function runBuild(): Promise<void> {
  const started = Date.now();
  process.stderr.write("browser tests: the production build is missing or stale; running next build…\n");
  // No NODE_ENV: next build sets it (vitest's NODE_ENV=test would make Next warn).
  const env = serverEnv({}, undefined);
  const child = spawn(process.execPath, [NEXT_BIN, "build"], { cwd: PROJECT_ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) {
    const tail = output.split("\n").slice(-80).join("\n");
    throw new Error(`next build failed (exit ${code}); the app cannot be served for browser tests:\n${tail}`);
  }
  process.stderr.write(`browser tests: next build done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/** A lock file holding the owner's pid; a lock whose owner is gone (crashed run) is taken over. */
async function withFileLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(file), { recursive: true });
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (lockOwnerIsGone(file)) {
      rmSync(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${file} (remove it if no build is running)`);
    await sleep(250);
  }
  try {
    return await work();
  } finally {
    rmSync(file, { force: true });
  }
}

function lockOwnerIsGone(file: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(file, "utf8").trim());
  } catch {
    return false; // just removed by its owner: try again
  }
  if (!Number.isInteger(pid) || pid <= 0) {
    // Created but not written yet, or garbage: only stale if it has been like that for a while.
    const stat = statSync(file, { throwIfNoEntry: false });
    return stat !== undefined && Date.now() - stat.mtimeMs > 10_000;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

// ------------------------------------------------------------------------------------------------ ports

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("could not pick a free port"))));
    });
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function waitForPortFree(port: number): Promise<void> {
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (!(await portIsFree(port))) {
    if (Date.now() > deadline) throw new Error(`port ${port} is still in use after the app server stopped`);
    await sleep(100);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
