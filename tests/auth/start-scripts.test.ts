/**
 * `npm start` and `npm run dev` apply the same host and token policy before anything starts (lib/auth/host-policy.mjs
 * through scripts/launch-next.mjs), and `npm run dev` listens where that policy says.
 */

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, PROJECT_DIR } from "./server-process";

const STRONG_TOKEN = `sb-dev-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
const dataDir = mkdtempSync(join(tmpdir(), "skillboard-start-scripts-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Only what npm and node need: no Skillboard setting from the caller's environment. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // No NODE_ENV: `next start` and `next dev` each set their own (Next's types make it a required member).
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: `file:${join(dataDir, "t.db")}`, ...extra } as Record<string, string> as NodeJS.ProcessEnv;
}

function runScript(script: "start" | "dev", env: Record<string, string>) {
  return spawnSync("npm", ["run", "-s", script], { cwd: PROJECT_DIR, env: baseEnv({ PORT: "1", ...env }), encoding: "utf8", timeout: 30_000 });
}

describe.each(["start", "dev"] as const)("npm run %s", (script) => {
  it("refuses to listen on 0.0.0.0 without a token: exit code 2 and a message, nothing started", () => {
    const result = runScript(script, { SKILLBOARD_HOST: "0.0.0.0" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Refusing to listen on 0.0.0.0");
    expect(result.stderr).toContain("SKILLBOARD_TOKEN is not set");
    expect(result.stdout).toBe("");
  });

  it.each([
    ["16 spaces", " ".repeat(16), "fewer than 16 characters other than spaces"],
    ["one character repeated", "x".repeat(32), "too predictable"],
  ])("refuses a token of %s, saying why", (_label, token, reason) => {
    for (const host of ["0.0.0.0", "127.0.0.1"]) {
      const result = runScript(script, { SKILLBOARD_HOST: host, SKILLBOARD_TOKEN: token });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`Refusing to listen on ${host}: SKILLBOARD_TOKEN`);
      expect(result.stderr).toContain(reason);
      expect(result.stdout).toBe("");
    }
  });
});

describe("npm run dev", () => {
  it("listens on SKILLBOARD_HOST with a strong token, and the token is required there", async () => {
    const port = await freePort();
    const child = spawn("npm", ["run", "-s", "dev"], {
      cwd: PROJECT_DIR,
      env: baseEnv({ PORT: String(port), SKILLBOARD_HOST: "0.0.0.0", SKILLBOARD_TOKEN: STRONG_TOKEN }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group, so that npm, next dev and its workers all stop at the end
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    try {
      const deadline = Date.now() + 120_000;
      let status = 0;
      while (Date.now() < deadline && child.exitCode === null) {
        try {
          status = (await fetch(`http://127.0.0.1:${port}/api/auth/check`, { signal: AbortSignal.timeout(60_000) })).status;
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
      expect(status, output).toBe(401);
      const authorized = await fetch(`http://127.0.0.1:${port}/api/auth/check`, { headers: { authorization: `Bearer ${STRONG_TOKEN}` } });
      expect(authorized.status).toBe(200);
      expect(output).toContain("0.0.0.0");
      expect(output).not.toContain(STRONG_TOKEN);
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }, 180_000);
});
