import { openDatabase, type Db } from "@/lib/db";
import { startAppServer, type AppServer } from "./app-server";
import { launchBrowser, type BrowserSession } from "./browser";

/** What a browser test works with: the production app on a temporary database, that database, and Chromium. */
export interface BrowserApp {
  server: AppServer;
  /** The app's own database, for arranging data and checking what it stored. */
  db: Db;
  browser: BrowserSession;
  /** Closes the browser, the database and the server, in that order. */
  stop(): Promise<void>;
}

export async function startBrowserApp(
  options: { env?: Record<string, string>; viewport?: { width: number; height: number } } = {},
): Promise<BrowserApp> {
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
