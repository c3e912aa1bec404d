/**
 * The proxy's rules hold whatever the path: Next runs a server action posted to any path its renderer answers, a 404
 * such as /favicon.ico or /_next/imagex included. Real production servers (`node scripts/start.mjs`), real actions.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOOPBACK_ONLY } from "@/lib/auth/access-policy";
import { openDatabase, type Db } from "@/lib/db";
import { BUILD_TIMEOUT_MS, ensureBuild } from "../support/app-server";
import { runCli } from "../support/cli";
import { killAllStarted, postServerAction, rawRequest, serverActionId, startServer, stopServer, type RawReply, type RunningServer } from "./server-process";

/** Every response, whatever it is (page, asset, JSON, redirect, refusal), may not be framed or sniffed. */
function expectSecurityHeaders(reply: RawReply, what: string): void {
  expect(reply.headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
  expect(reply.headers["x-frame-options"], what).toBe("DENY");
  expect(reply.headers["x-content-type-options"], what).toBe("nosniff");
  expect(reply.headers["referrer-policy"], what).toBe("same-origin");
}

// Paths the proxy's matcher used to skip, paths no route answers, and ordinary pages: all must be checked.
const PATHS = ["/_next/imagex", "/_next/image", "/favicon.ico", "/_next/static/x", "/_next/staticx", "/icon.svg", "/API/datasets", "/api/datasets/x", "/nothing.png", "/runs/1"];

let dataDir: string;
let databaseUrl: string;
let db: Db;
beforeAll(async () => {
  await ensureBuild();
  dataDir = mkdtempSync(join(tmpdir(), "skillboard-proxy-paths-"));
  databaseUrl = `file:${join(dataDir, "t.db")}`;
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  killAllStarted();
  await db?.$disconnect();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("without a token (loopback only)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: databaseUrl });
    // The server seeded the demo (dataset 1, skill versions 1 and 2); a finished run to "run again".
    const made = await runCli(["run", "--dataset", "1", "--skill", "1", "--backend", "baseline", "--limit", "2"], { databaseUrl });
    expect(made.code, made.stderr).toBe(0);
    db = openDatabase(databaseUrl);
  }, 90_000);
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  const runAgain = (path: string, host: string) =>
    postServerAction(server.port, path, { actionId: serverActionId("runAgainAction"), host, origin: `http://${host}`, fields: { runId: "1", skillVersionId: "2" } });

  it("runs a real action posted from this machine (the request below is a working one)", async () => {
    const before = await db.run.count();
    const reply = await runAgain("/runs/1", `127.0.0.1:${server.port}`);
    expect(reply.status).toBe(200);
    expect(await db.run.count()).toBe(before + 1);
  });

  it.each(PATHS)("refuses the same action under another Host name at %s (DNS rebinding), and creates nothing", async (path) => {
    const before = await db.run.count();
    const reply = await runAgain(path, "evil.example");
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toEqual({ error: LOOPBACK_ONLY });
    expect(await db.run.count()).toBe(before);
  });

  it("sends the security headers on every kind of response", async () => {
    const host = `127.0.0.1:${server.port}`;
    const page = await rawRequest(server.port, "/", { method: "GET", headers: { host } });
    expect(page.status).toBe(200);
    expectSecurityHeaders(page, "page");
    const asset = /(\/_next\/static\/[^"]+\.js)"/.exec(page.body)![1]!;
    const replies: [string, RawReply][] = [
      ["static asset", await rawRequest(server.port, asset, { method: "GET", headers: { host } })],
      ["icon", await rawRequest(server.port, "/icon.svg", { method: "GET", headers: { host } })],
      ["route handler", await rawRequest(server.port, "/api/auth/check", { method: "GET", headers: { host } })],
      ["404", await rawRequest(server.port, "/no-such-page", { method: "GET", headers: { host } })],
      ["refusal", await rawRequest(server.port, "/", { method: "GET", headers: { host: "evil.example" } })],
      ["upload route", await rawRequest(server.port, "/api/datasets", { method: "POST", headers: { host, "content-type": "text/plain" }, body: "x" })],
      ["results import route", await rawRequest(server.port, "/api/runs/import", { method: "POST", headers: { host, "content-type": "text/plain" }, body: "x" })],
    ];
    for (const [what, reply] of replies) expectSecurityHeaders(reply, `${what} (${reply.status})`);
  });

  it("refuses reads under another Host name too, static files included", async () => {
    for (const path of ["/", "/_next/static/chunks/x.js", "/favicon.ico", "/_next/image?url=%2Ficon.svg&w=64&q=75"]) {
      const reply = await rawRequest(server.port, path, { method: "GET", headers: { host: "evil.example" } });
      expect(reply.status, path).toBe(403);
    }
  });
});

describe("with a token", () => {
  const TOKEN = `sb-test-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: databaseUrl, SKILLBOARD_TOKEN: TOKEN });
  }, 90_000);
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  it("sends the security headers on redirects and refusals too", async () => {
    const host = `127.0.0.1:${server.port}`;
    const redirect = await rawRequest(server.port, "/runs", { method: "GET", headers: { host } });
    expect(redirect.status).toBe(303);
    expectSecurityHeaders(redirect, "redirect to sign-in");
    const refused = await rawRequest(server.port, "/api/auth/check", { method: "GET", headers: { host } });
    expect(refused.status).toBe(401);
    expectSecurityHeaders(refused, "401");
  });

  it.each(PATHS)("answers an action posted to %s without credentials with 401, quietly", async (path) => {
    const host = `127.0.0.1:${server.port}`;
    const before = server.output().length;
    for (let attempt = 0; attempt < 3; attempt++) {
      const reply = await postServerAction(server.port, path, { actionId: serverActionId("runAgainAction"), host, fields: { runId: "1", skillVersionId: "2" } });
      expect(reply.status).toBe(401);
      expect(JSON.parse(reply.body)).toEqual({ error: "authentication required" });
    }
    // Anything the server would log about these requests has been written by the time a later request is answered.
    await rawRequest(server.port, "/signin", { method: "GET", headers: { host } });
    expect(server.output().slice(before)).not.toMatch(/uncaughtException|ECONNRESET|aborted/);
  });
});
