import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
// Not the lib/db index: that loads the generated client, which this config is used to generate.
import { resolveDatabaseUrl } from "./lib/db/database-url";

// Prisma 6.19 with the JS engine and the better-sqlite3 adapter: no engine binaries are downloaded.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => new PrismaBetterSQLite3({ url: resolveDatabaseUrl() }),
});
