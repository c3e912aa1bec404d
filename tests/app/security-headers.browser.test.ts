// Every page of the production app sends the security headers (CSP with a per-response nonce, no framing, no MIME
// sniffing, a same-origin referrer policy) and still works under them in Chromium: no CSP violation, no console error,
// client code hydrated. A page on another origin cannot frame the dashboard.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS } from "../support/app-server";
import { startBrowserApp, type BrowserApp } from "../support/browser-app";
import { runCli } from "../support/cli";

const NONCE = /'nonce-([A-Za-z0-9+/]+={0,2})'/;

describe("security headers (browser)", () => {
  let app: BrowserApp;
  let pages: { name: string; path: string }[];

  beforeAll(async () => {
    app = await startBrowserApp();
    // The server seeded the demo (dataset 1, skill versions 1 and 2); two finished baseline runs on it.
    for (const skill of ["1", "2"]) {
      const made = await runCli(["run", "--dataset", "1", "--skill", skill, "--backend", "baseline", "--limit", "6"], { databaseUrl: app.server.databaseUrl });
      expect(made.code, made.stderr).toBe(0);
    }
    const item = await app.db.runResult.findFirstOrThrow({ where: { runId: 1 }, orderBy: { seq: "asc" } });
    pages = [
      { name: "home", path: "/" },
      { name: "skills", path: "/skills" },
      { name: "a skill", path: "/skills/1" },
      { name: "datasets", path: "/datasets" },
      { name: "a dataset", path: "/datasets/1" },
      { name: "runs", path: "/runs" },
      { name: "new run", path: "/runs/new" },
      { name: "a run", path: "/runs/1" },
      { name: "an item", path: `/runs/1/items/${encodeURIComponent(item.itemId)}` },
      { name: "compare", path: "/compare?runs=1,2" },
      { name: "sign-in", path: "/signin" },
      { name: "not found", path: "/no-such-page" },
    ];
    await app.browser.page.addInitScript(() => {
      const violations: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = violations;
      document.addEventListener("securitypolicyviolation", (event) => violations.push(`${event.violatedDirective}: ${event.blockedURI} (${event.sourceFile}:${event.lineNumber}:${event.columnNumber})`));
    });
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await app?.stop();
  }, 30_000);

  it("sends the headers on every page, which renders and hydrates without a CSP violation or an error", async () => {
    const { page, errors } = app.browser;
    const nonces = new Set<string>();
    for (const { name, path } of pages) {
      const response = await page.goto(`${app.server.baseURL}${path}`, { waitUntil: "networkidle" });
      expect(response?.status(), name).toBe(name === "not found" ? 404 : 200);
      const headers = response!.headers();
      const policy = headers["content-security-policy"] ?? "";
      expect(policy, name).toContain("frame-ancestors 'none'");
      expect(policy, name).toContain("object-src 'none'");
      expect(policy, name).toContain("base-uri 'none'");
      expect(policy, name).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
      expect(policy, name).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(headers["x-frame-options"], name).toBe("DENY");
      expect(headers["x-content-type-options"], name).toBe("nosniff");
      expect(headers["referrer-policy"], name).toBe("same-origin");
      const nonce = NONCE.exec(policy)![1]!;
      nonces.add(nonce);
      // Next's own scripts carry this response's nonce (the DOM hides the attribute; the property keeps it).
      const scripts = await page.evaluate(() => [...document.scripts].map((script) => script.nonce));
      expect(scripts.length, name).toBeGreaterThan(0);
      expect(scripts.every((value) => value === nonce), name).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), name).toEqual([]);
      expect(errors.filter((error) => !(name === "not found" && /404/.test(error))), name).toEqual([]);
      errors.length = 0;
    }
    expect(nonces.size).toBe(pages.length);
  });

  it("runs client code under the policy: the runs page's compare button answers a single ticked run", async () => {
    const { page, errors } = app.browser;
    await page.goto(`${app.server.baseURL}/runs`, { waitUntil: "networkidle" });
    await page.getByLabel("Select run #1 to compare").check();
    await page.getByRole("button", { name: "Compare selected" }).click();
    // Handled in the page by React (without script the form would submit and navigate to /compare).
    await expect(page.locator("p[role=alert]").innerText()).resolves.toBe("Tick at least two runs to compare.");
    expect(new URL(page.url()).pathname).toBe("/runs");
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("cannot be framed by a page on another origin", async () => {
    let attacker: Server | undefined;
    const framing = await app.browser.context.newPage();
    try {
      attacker = createServer((_request, response) => {
        response.setHeader("content-type", "text/html");
        response.end(`<!doctype html><iframe id="victim" src="${app.server.baseURL}/runs/1" width="800" height="600"></iframe>`);
      });
      await new Promise<void>((resolve) => attacker!.listen(0, "127.0.0.2", resolve));
      const { port } = attacker.address() as AddressInfo;
      // "load" waits for the frame as well, whatever it ends up showing.
      await framing.goto(`http://127.0.0.2:${port}/`, { waitUntil: "load" });
      const frame = framing.frames().find((candidate) => candidate !== framing.mainFrame());
      expect(frame).toBeDefined();
      // Chromium refuses to render the dashboard there and shows its error page instead (once the refused response
      // is in, which "load" does not always wait for): nothing to click through.
      await expect.poll(() => frame!.url(), { timeout: 10_000 }).toMatch(/^chrome-error:/);
      expect(await frame!.locator("button, a[href]").count()).toBe(0);
    } finally {
      await framing.close();
      app.browser.errors.length = 0;
      attacker?.closeAllConnections();
      await new Promise((resolve) => attacker?.close(resolve));
    }
  });
});
