/**
 * The real production server (`node scripts/start.mjs` → `next start`) with SKILLBOARD_TOKEN set:
 * what a browser, a script and an attacker get. Builds first if the build is missing or stale (~40 s).
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuild } from "../support/app-server";
import { killAllStarted, PROJECT_DIR, startServer, stopServer, type RunningServer } from "./server-process";

const TOKEN = `sb-test-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
const COOKIE_NAME = "skillboard_token";

let dataDir: string;
let server: RunningServer;
/** Every response's status line, headers and body, to check that the token never comes back. */
const seen: string[] = [];

interface Reply {
  status: number;
  headers: Headers;
  body: string;
}

async function call(path: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(`${server.baseUrl}${path}`, { redirect: "manual", ...init });
  const body = await response.text();
  seen.push(`${response.status} ${[...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n")}\n\n${body}`);
  return { status: response.status, headers: response.headers, body };
}

function signInForm(token: string, next?: string): RequestInit {
  const fields = new URLSearchParams({ token, ...(next ? { next } : {}) });
  return { method: "POST", body: fields, headers: { "content-type": "application/x-www-form-urlencoded" } };
}

const bearer = { authorization: `Bearer ${TOKEN}` };

/** fetch() cannot set Host; a DNS-rebinding page's requests arrive with the attacker's name in it. */
function statusWithHostHeader(port: number, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  await ensureBuild();
  dataDir = mkdtempSync(join(tmpdir(), "skillboard-auth-"));
  server = await startServer({
    SKILLBOARD_HOST: "127.0.0.1",
    SKILLBOARD_TOKEN: TOKEN,
    DATABASE_URL: `file:${join(dataDir, "t.db")}`,
  });
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  killAllStarted();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("with SKILLBOARD_TOKEN set", () => {
  it("redirects a page request without credentials to the sign-in page (303)", async () => {
    const reply = await call("/runs?tab=all");
    expect(reply.status).toBe(303);
    expect(reply.headers.get("location")).toBe("/signin?next=%2Fruns%3Ftab%3Dall");
    expect((await call("/")).headers.get("location")).toBe("/signin?next=%2F");
  });

  it("serves the sign-in page with an 'Access token' password field and a 'Sign in' button", async () => {
    const reply = await call("/signin?next=%2Fruns");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatch(/<label[^>]*for="signin-token"[^>]*>Access token<\/label>/);
    expect(reply.body).toMatch(/<input[^>]*id="signin-token"[^>]*type="password"/);
    expect(reply.body).toMatch(/<button[^>]*type="submit"[^>]*>Sign in<\/button>/);
    expect(reply.body).toContain('name="next" value="/runs"');
    expect(reply.body).not.toContain("Wrong token");
  });

  it("serves static assets without credentials", async () => {
    const page = await call("/signin");
    const asset = /(\/_next\/static\/[^"]+\.(?:css|js))"/.exec(page.body)?.[1];
    expect(asset).toBeDefined();
    expect((await call(asset!)).status).toBe(200);
  });

  it("answers route handlers without credentials with 401 JSON", async () => {
    const reply = await call("/api/auth/check");
    expect(reply.status).toBe(401);
    expect(reply.headers.get("content-type")).toContain("application/json");
    expect(JSON.parse(reply.body)).toEqual({ error: "authentication required" });
    expect((await call("/api/auth/check", { headers: { authorization: "Bearer not-the-token-at-all" } })).status).toBe(401);
  });

  it("answers server-action-style posts and downloads without credentials with 401 JSON", async () => {
    const action = await call("/", { method: "POST", headers: { "Next-Action": "x", "content-type": "text/plain" }, body: "[]" });
    expect(action.status).toBe(401);
    expect(JSON.parse(action.body)).toEqual({ error: "authentication required" });
    expect((await call("/runs/1/results.csv")).status).toBe(401);
  });

  it("accepts the token as a bearer header", async () => {
    const check = await call("/api/auth/check", { headers: bearer });
    expect(check.status).toBe(200);
    expect(JSON.parse(check.body)).toEqual({ ok: true });
    expect((await call("/", { headers: bearer })).status).toBe(200);
  });

  it("signs in with the right token: HttpOnly cookie (not the token), 303 to `next`, and the cookie grants access", async () => {
    const reply = await call("/api/auth/signin", signInForm(TOKEN, "/runs?tab=all"));
    expect(reply.status).toBe(303);
    expect(reply.headers.get("location")).toBe("/runs?tab=all");
    const setCookies = reply.headers.getSetCookie();
    expect(setCookies).toHaveLength(1);
    const setCookie = setCookies[0]!;
    expect(setCookie).toMatch(new RegExp(`^${COOKIE_NAME}=[A-Za-z0-9_-]{43};`));
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\//i);
    expect(setCookie).not.toMatch(/; Secure/i);

    const cookie = setCookie.split(";")[0]!;
    const check = await call("/api/auth/check", { headers: { cookie } });
    expect(check.status).toBe(200);
    expect((await call("/", { headers: { cookie } })).status).toBe(200);
    const action = await call("/", { method: "POST", headers: { cookie, "Next-Action": "x" }, body: "[]" });
    expect(action.status).not.toBe(401); // reaches Next, which rejects the made-up action id itself
  });

  it("accepts JSON sign-in too", async () => {
    const reply = await call("/api/auth/signin", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(reply.status).toBe(303);
    expect(reply.headers.get("location")).toBe("/");
    expect(reply.headers.getSetCookie()[0]).toMatch(new RegExp(`^${COOKIE_NAME}=`));
  });

  it("refuses a wrong token after a delay, sets no cookie, and the page says 'Wrong token'", async () => {
    const startedAt = Date.now();
    const reply = await call("/api/auth/signin", signInForm(`${TOKEN}x`, "/runs"));
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(290);
    expect(reply.status).toBe(303);
    expect(reply.headers.getSetCookie()).toEqual([]);
    const location = reply.headers.get("location")!;
    expect(location).toBe("/signin?error=wrong-token&next=%2Fruns");
    const page = await call(location);
    expect(page.body).toContain("Wrong token");

    const json = await call("/api/auth/signin", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: "wrong" }),
    });
    expect(json.status).toBe(401);
    expect(JSON.parse(json.body)).toEqual({ error: "wrong token" });
    expect(json.headers.getSetCookie()).toEqual([]);
  });

  it.each(["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", "/.//evil.example", "/%2e//evil.example"])(
    "redirects to / instead of next=%j",
    async (next) => {
      const reply = await call("/api/auth/signin", signInForm(TOKEN, next));
      expect(reply.status).toBe(303);
      expect(reply.headers.get("location")).toBe("/");
    },
  );

  it("refuses a cross-origin post even with the cookie", async () => {
    const signIn = await call("/api/auth/signin", signInForm(TOKEN));
    const cookie = signIn.headers.getSetCookie()[0]!.split(";")[0]!;
    const reply = await call("/api/auth/signout", { method: "POST", headers: { cookie, origin: "http://127.0.0.1:1" } });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toEqual({ error: "cross-origin request refused" });
  });

  it("signs out by expiring the cookie", async () => {
    const signIn = await call("/api/auth/signin", signInForm(TOKEN));
    const cookie = signIn.headers.getSetCookie()[0]!.split(";")[0]!;
    const reply = await call("/api/auth/signout", { method: "POST", headers: { cookie, origin: server.baseUrl } });
    expect(reply.status).toBe(303);
    expect(reply.headers.get("location")).toBe("/signin");
    expect(reply.headers.getSetCookie()[0]).toMatch(new RegExp(`^${COOKIE_NAME}=;.*Max-Age=0`, "i"));
  });

  it("never sends the token back, nor prints it", () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const reply of seen) expect(reply).not.toContain(TOKEN);
    expect(server.output()).not.toContain(TOKEN);
  });

  it("stops when its start process gets SIGTERM, leaving nothing listening", async () => {
    const { code, portReleased } = await stopServer(server);
    expect(code).not.toBe("timeout");
    expect(portReleased).toBe(true);
    expect(server.output()).not.toContain(TOKEN);
  });
});

describe("start policy", () => {
  it("refuses to listen on 0.0.0.0 without a token: exit code 2 and a message, nothing started", () => {
    const result = spawnSync(process.execPath, ["scripts/start.mjs"], {
      cwd: PROJECT_DIR,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", SKILLBOARD_HOST: "0.0.0.0", PORT: "1" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Refusing to listen on 0.0.0.0");
    expect(result.stderr).toContain("SKILLBOARD_TOKEN is not set");
    expect(result.stdout).toBe("");
  });

  it("without a token serves everything on 127.0.0.1, but refuses other Host names and cross-origin posts", async () => {
    const open = await startServer({ SKILLBOARD_HOST: "127.0.0.1", DATABASE_URL: `file:${join(dataDir, "t.db")}` });
    try {
      expect((await fetch(`${open.baseUrl}/`)).status).toBe(200);
      expect(await (await fetch(`${open.baseUrl}/api/auth/check`)).json()).toEqual({ ok: true });
      expect(await statusWithHostHeader(open.port, "/api/auth/check", "rebind.evil.example:80")).toBe(403);
      expect(await statusWithHostHeader(open.port, "/api/auth/check", `localhost:${open.port}`)).toBe(200);
      const crossSite = await fetch(`${open.baseUrl}/`, { method: "POST", headers: { "Next-Action": "x", origin: "https://evil.example" } });
      expect(crossSite.status).toBe(403);
    } finally {
      expect((await stopServer(open)).portReleased).toBe(true);
    }
  }, 90_000);

  it("listens on 0.0.0.0 with a token, and answers on 127.0.0.1", async () => {
    const open = await startServer({
      SKILLBOARD_HOST: "0.0.0.0",
      SKILLBOARD_TOKEN: TOKEN,
      DATABASE_URL: `file:${join(dataDir, "t.db")}`,
    });
    try {
      expect((await fetch(`${open.baseUrl}/api/auth/check`)).status).toBe(401);
      expect((await fetch(`${open.baseUrl}/api/auth/check`, { headers: bearer })).status).toBe(200);
    } finally {
      expect((await stopServer(open)).portReleased).toBe(true);
    }
    expect(open.output()).not.toContain(TOKEN);
  }, 90_000);
});
