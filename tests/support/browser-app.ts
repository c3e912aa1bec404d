/**
 * What a browser test (`*.browser.test.ts`) works with: the production app on a temporary database, that
 * database, and headless Chromium. Call useBrowserApp() once at the top of the describe:
 *
 *   describe("skills pages (browser)", () => {
 *     const app = useBrowserApp({ viewport: { width: 1280, height: 900 } });
 *     beforeAll(() => importDataset(app.db, …)); // data the tests need, in the app's own database
 *
 *     it("uploads a skill", async () => {
 *       const { page } = app.browser;
 *       await page.goto(`${app.baseURL}/skills`);
 *       …
 *       expect(app.browser.errors).toEqual([]); // console errors and uncaught exceptions, as they happened
 *     });
 *   });
 *
 * It registers the describe's beforeAll (build if stale, start `next start`, open its database, launch Chromium)
 * and afterAll (close all three). Hooks run in the order written and the afterAll ones in reverse, so a fake model
 * server started by a beforeAll written above useBrowserApp is there when the app starts and outlives it; options
 * may be a function, called in the beforeAll, to use its URL. The fields throw if read before the app started.
 */
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Db } from "@/lib/db";
import { BUILD_TIMEOUT_MS, startAppServer, type AppServer } from "./app-server";
import { launchBrowser, type BrowserSession } from "./browser";

export interface BrowserAppOptions {
  /** Extra environment for the server (e.g. a model server's URL); see tests/support/app-server.ts. */
  env?: Record<string, string>;
  /** Chromium's window; 1280 × 800 by default. */
  viewport?: { width: number; height: number };
}

export interface BrowserApp {
  server: AppServer;
  /** The app's own database, for arranging data and checking what it stored. */
  db: Db;
  browser: BrowserSession;
  /** Closes the browser, the database and the server, in that order. */
  stop(): Promise<void>;
}

/** Starts the app, its database and Chromium for the tests of the describe it is called in (see above). */
export function useBrowserApp(options: BrowserAppOptions | (() => BrowserAppOptions) = {}): BrowserApp & { baseURL: string } {
  let app: BrowserApp | undefined;
  beforeAll(async () => {
    app = await startBrowserApp(typeof options === "function" ? options() : options);
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await app?.stop();
  }, 30_000);
  const started = (): BrowserApp => {
    if (!app) throw new Error("the browser app has not started: use it in a test, or in a beforeAll written after useBrowserApp()");
    return app;
  };
  return {
    get server() {
      return started().server;
    },
    get db() {
      return started().db;
    },
    get browser() {
      return started().browser;
    },
    /** The server's address, e.g. http://127.0.0.1:41234 (no trailing slash). */
    get baseURL() {
      return started().server.baseURL;
    },
    stop: () => started().stop(),
  };
}

/** The same without hooks, for a test that manages its own lifetime; most tests want useBrowserApp(). */
export async function startBrowserApp(options: BrowserAppOptions = {}): Promise<BrowserApp> {
  const server = await startAppServer({ env: options.env });
  const db = openDatabase(server.databaseUrl);
  try {
    const browser = await launchBrowser({ viewport: options.viewport });
    return {
      server,
      db,
      browser,
      async stop() {
        await browser.close();
        await db.$disconnect();
        await server.stop();
      },
    };
  } catch (error) {
    await db.$disconnect();
    await server.stop();
    throw error;
  }
}
