/**
 * Runs the real production server for the auth tests through the production start command,
 * `node scripts/start.mjs`, on a free port, with its output captured, in its own process group so that
 * nothing survives the tests. (tests/support/app-server.ts runs `next start` directly, which skips the
 * start policy these tests are about; its ensureBuild() is shared, so parallel test files build once.)
 */

import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_DIR = fileURLToPath(new URL("../..", import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export interface RunningServer {
  process: ChildProcess;
  port: number;
  baseUrl: string;
  /** Everything the server printed so far, stdout and stderr. */
  output(): string;
  exited: Promise<number | null>;
}

const started = new Set<ChildProcess>();
// Also when the test process exits without afterAll (a crash, a timeout).
process.once("exit", () => killAllStarted());

/** Starts `node scripts/start.mjs`; resolves once it answers on 127.0.0.1, rejects if it exits first. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: PROJECT_DIR,
    env: { ...serverEnv(), PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: killGroup() reaches next-server too
  });
  started.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const server: RunningServer = { process: child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited };

  const deadline = Date.now() + 60_000;
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  while (Date.now() < deadline) {
    if (hasExited) {
      killGroup(child);
      throw new Error(`server exited before answering:\n${output}`);
    }
    try {
      await fetch(`${server.baseUrl}/signin`, { redirect: "manual" });
      return server;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  killGroup(child);
  throw new Error(`server did not answer within 60 s:\n${output}`);
}

/**
 * SIGTERM to the start process only (it must pass it on to next-server), as `kill <pid>` would do.
 * Reports its exit code and whether the port was released; then SIGKILLs the group, whatever happened.
 */
export async function stopServer(server: RunningServer): Promise<{ code: number | null | "timeout"; portReleased: boolean }> {
  server.process.kill("SIGTERM");
  const code = await Promise.race([server.exited, new Promise<"timeout">((resolve) => setTimeout(resolve, 10_000, "timeout"))]);
  const portReleased = await isPortFree(server.port);
  killGroup(server.process);
  return { code, portReleased };
}

/** Last resort: every process group these tests started, whatever state it is in. */
export function killAllStarted(): void {
  for (const child of started) killGroup(child);
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
  started.delete(child);
}

/** The test runner's environment without settings that would change what the server does. */
function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key === "NODE_ENV" || key === "PORT" || key === "HOSTNAME" || key === "DATABASE_URL" || /^(SKILLBOARD_|OPENAI_|AZURE_OPENAI_|VITEST)/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

/** The id Next gave a server action in the current build (ids change with every build). */
export function serverActionId(exportedName: string): string {
  const manifest = JSON.parse(readFileSync(join(PROJECT_DIR, ".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName: string }>;
  };
  const found = Object.entries(manifest.node).find(([, action]) => action.exportedName === exportedName);
  if (!found) throw new Error(`no server action named ${exportedName} in the build`);
  return found[0];
}

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Calls a server action the way the browser's React runtime does (POST with Next-Action and its FormData argument,
 * encoded as React's reply format expects), with any Host and Origin: fetch() cannot set Host, and a DNS-rebinding
 * page's requests arrive with the attacker's name in it.
 */
export function postServerAction(
  port: number,
  path: string,
  options: { actionId: string; host: string; origin?: string; fields: Record<string, string>; headers?: Record<string, string> },
): Promise<RawReply> {
  const boundary = `----skillboard-test-${Math.random().toString(36).slice(2)}`;
  const parts = [...Object.entries(options.fields).map(([name, value]) => [`_1_${name}`, value]), ["0", '["$K1"]']];
  const body = parts.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("") + `--${boundary}--\r\n`;
  return rawRequest(port, path, {
    method: "POST",
    body,
    headers: {
      host: options.host,
      ...(options.origin ? { origin: options.origin } : {}),
      "next-action": options.actionId,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      ...options.headers,
    },
  });
}

export function rawRequest(port: number, path: string, options: { method: string; headers: Record<string, string>; body?: string }): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers, "content-length": String(Buffer.byteLength(options.body ?? "")) };
    const req = request({ host: "127.0.0.1", port, path, method: options.method, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body ?? "");
  });
}
