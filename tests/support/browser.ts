/**
 * Headless Chromium for browser tests: Debian's chromium driven by playwright-core (no browser download).
 * Browser tests get it through useBrowserApp() (./browser-app.ts); on its own:
 *
 *   const browser = await launchBrowser();
 *   try {
 *     await browser.page.goto(server.baseURL);
 *     await screenshot(browser.page, "home");
 *     expect(browser.errors).toEqual([]);
 *   } finally {
 *     await browser.close();
 *   }
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";

const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SCREENSHOT_DIR = join(PROJECT_ROOT, "test-results", "screenshots");

/** Flags that worked on Debian 12 as root in a container (see /work/shared/STACK.md). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface BrowserSession {
  context: BrowserContext;
  /** The context's first tab. More: `await context.newPage()`. */
  page: Page;
  /** Console errors and uncaught exceptions of every page of the context, as they happen (not Chromium's own favicon 404). */
  errors: string[];
  /** Closes the browser (its processes end) and removes the temporary profile. Safe to call twice. */
  close(): Promise<void>;
}

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}

export async function launchBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<BrowserSession> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}; browser tests need it. Install Debian's chromium: ` +
        "apt-get install -y chromium (as root), or set CHROMIUM_PATH to a Chromium binary.",
    );
  }
  const profile = mkdtempSync(join(tmpdir(), "skillboard-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? { width: 1280, height: 800 },
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const where = message.location().url;
      if (isOwnFaviconRequest(message.text(), where)) return;
      errors.push(`console: ${message.text()}${where ? ` (${where})` : ""}`);
    });
    page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  };
  context.pages().forEach(watch);
  context.on("page", watch);
  const page = context.pages()[0] ?? (await context.newPage());

  let closed = false;
  return {
    context,
    page,
    errors,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await context.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Chromium asks for /favicon.ico by itself on some navigations (seen with the compare page), whatever the page's
 * <link rel="icon"> says; the app's icon is app/icon.svg, so that 404 says nothing about the page.
 */
function isOwnFaviconRequest(text: string, url: string): boolean {
  return /status of 404/.test(text) && URL.canParse(url) && new URL(url).pathname === "/favicon.ico";
}

/** Saves a full-page PNG as test-results/screenshots/<name>.png (test-results/ is git-ignored); returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const safeName = name.replace(/[^A-Za-z0-9._-]+/g, "-");
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${safeName}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
