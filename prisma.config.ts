import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
// Not the lib/db index: that loads the generated client, which this config is used to generate.
import { databaseEngine, resolveDatabaseUrl } from "./lib/db/database-url";

// Prisma 6.19 with the JS engine and a driver adapter: no engine binaries are downloaded. DATABASE_URL picks the
// engine: SQLite (file:…, the default) or PostgreSQL (postgresql://…), whose schema is generated from the SQLite one
// (scripts/pg-schema.ts). Both clients are generated whatever DATABASE_URL says (npm run db:generate).
// allowExitOnIdle: the CLI never closes the pool, whose idle connections would keep it alive for 10 s.
const url = resolveDatabaseUrl();
const postgres = databaseEngine(url) === "postgresql";
export default defineConfig({
  schema: postgres ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: postgres ? "prisma/postgresql/migrations" : "prisma/migrations" },
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => (postgres ? new PrismaPg({ connectionString: url, allowExitOnIdle: true }) : new PrismaBetterSQLite3({ url })),
});
