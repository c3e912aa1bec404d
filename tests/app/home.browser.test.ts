// Smoke test of the browser harness: the production app in headless Chromium renders its home page.
import { describe, expect, it } from "vitest";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";

// A credential the server is given but must never print or send to the browser.
const CANARY_KEY = "sk-skillboard-test-canary-4b1e7c";

describe("home page (browser)", () => {
  const app = useBrowserApp({ env: { OPENAI_API_KEY: CANARY_KEY } });

  it("renders the Skillboard brand and layout without errors", async () => {
    const { page, errors } = app.browser;
    const response = await page.goto(`${app.baseURL}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain("Skillboard");
    await expect(page.locator("header").first().innerText()).resolves.toContain("Skillboard");
    await expect(page.locator("main").first().isVisible()).resolves.toBe(true);

    await screenshot(page, "home");
    expect(errors).toEqual([]);
    expect(await page.content()).not.toContain(CANARY_KEY);
    expect(app.server.logs()).not.toContain(CANARY_KEY);
  });
});
