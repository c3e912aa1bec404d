/**
 * The production app and its database for the tests of a describe (or file) that talk to the server without a
 * browser (`*.server.test.ts`); browser tests use useBrowserApp. Registers the beforeAll that builds if stale, starts
 * `next start` and opens the database, and the afterAll that closes both. Options may be a function, called in the
 * beforeAll, to use something a beforeAll written above it started (a fake model server's URL).
 */
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Db } from "@/lib/db";
import { BUILD_TIMEOUT_MS, startAppServer, type AppServer, type AppServerOptions } from "./app-server";

export function withAppServer(options: AppServerOptions | (() => AppServerOptions) = {}): { readonly server: AppServer; readonly db: Db } {
  let server: AppServer | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    server = await startAppServer(typeof options === "function" ? options() : options);
    db = openDatabase(server.databaseUrl);
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await db?.$disconnect();
    await server?.stop();
  }, 30_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the app server has not started: use it in a test, or in a beforeAll written after withAppServer()");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get db() {
      return started(db);
    },
  };
}
