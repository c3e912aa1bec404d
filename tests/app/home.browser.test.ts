// Smoke test of the browser harness: the production app in headless Chromium renders its home page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, type AppServer } from "../support/app-server";
import { startBrowserApp, type BrowserApp } from "../support/browser-app";
import { screenshot, type BrowserSession } from "../support/browser";

// A credential the server is given but must never print or send to the browser.
const CANARY_KEY = "sk-skillboard-test-canary-4b1e7c";

describe("home page (browser)", () => {
  let app: BrowserApp | undefined;
  let server: AppServer | undefined;
  let browser: BrowserSession | undefined;

  beforeAll(async () => {
    app = await startBrowserApp({ env: { OPENAI_API_KEY: CANARY_KEY } });
    ({ server, browser } = app);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await app?.stop();
  }, 30_000);

  it("renders the Skillboard brand and layout without errors", async () => {
    const { page, errors } = browser!;
    const response = await page.goto(`${server!.baseURL}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain("Skillboard");
    await expect(page.locator("header").first().innerText()).resolves.toContain("Skillboard");
    await expect(page.locator("main").first().isVisible()).resolves.toBe(true);

    await screenshot(page, "home");
    expect(errors).toEqual([]);
    expect(await page.content()).not.toContain(CANARY_KEY);
    expect(server!.logs()).not.toContain(CANARY_KEY);
  });
});
