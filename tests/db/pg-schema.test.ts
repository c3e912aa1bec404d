// One data model for both engines: prisma/postgresql/ is generated from prisma/schema.prisma (scripts/pg-schema.ts),
// and these fail when either the PostgreSQL schema or its migrations drift from it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { listMigrations } from "@/lib/db/migrate";
import { listPgMigrations, migrationDrift, PG_MIGRATIONS, PG_SCHEMA, postgresSchema, SQLITE_SCHEMA } from "../../scripts/pg-schema";
import { TEST_ENGINE } from "../support/test-db";

const BASELINE = "20261201050001_postgresql_baseline";

describe("the PostgreSQL schema", () => {
  it("is what scripts/pg-schema.ts makes of prisma/schema.prisma (run `npm run -s db:pg -- migration <name>` after a change)", () => {
    expect(readFileSync(PG_SCHEMA, "utf8")).toBe(postgresSchema(readFileSync(SQLITE_SCHEMA, "utf8")));
  });

  it("has a migration of the same name for every SQLite migration after its baseline", () => {
    const postgres = listPgMigrations();
    expect(postgres[0]).toBe(BASELINE);
    const sqliteSinceBaseline = listMigrations(join("prisma", "migrations")).filter((name) => name > BASELINE);
    expect(sqliteSinceBaseline.length).toBeGreaterThan(0);
    expect(postgres.slice(1)).toEqual(sqliteSinceBaseline);
    for (const name of postgres) expect(existsSync(join(PG_MIGRATIONS, name, "migration.sql"))).toBe(true);
  });

  it("stores text in byte order (COLLATE \"C\"), as SQLite compares it", () => {
    const baseline = readFileSync(join(PG_MIGRATIONS, BASELINE, "migration.sql"), "utf8");
    expect(baseline).toMatch(/"question" TEXT COLLATE "C" NOT NULL/);
    expect(baseline.match(/ TEXT(?! COLLATE "C")/g)).toBeNull();
  });

  describe.runIf(TEST_ENGINE === "postgresql")("on a PostgreSQL server", () => {
    it("is exactly what its migrations build", async () => {
      expect(await migrationDrift(`${inject("pgServerUrl")}postgres`)).toEqual([]);
    }, 60_000);

    it("tells a column the migrations lack", async () => {
      const withProbe = readFileSync(PG_SCHEMA, "utf8").replace(/(model RunResult \{\n)/, "$1  driftProbe Int @default(0)\n");
      expect(await migrationDrift(`${inject("pgServerUrl")}postgres`, withProbe)).toEqual([
        "only the schema makes: column RunResult.driftProbe integer null=NO default=0 collate=",
      ]);
    }, 60_000);
  });
});
