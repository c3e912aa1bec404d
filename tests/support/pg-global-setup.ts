// Vitest global setup of the "db-postgresql" project (vitest.config.ts): one throwaway PostgreSQL cluster for the
// whole run, and a migrated template database that each test's database is copied from (tests/support/test-db.ts).
import type { TestProject } from "vitest/node";
import { applyPostgresMigrations } from "@/lib/db/migrate-postgres";
import { startPgCluster, type PgCluster } from "./pg-cluster";

export const TEMPLATE_DATABASE = "skillboard_template";

declare module "vitest" {
  export interface ProvidedContext {
    /** postgresql://…/ of the test cluster, without a database name */
    pgServerUrl: string;
  }
}

let cluster: PgCluster | null = null;

export default async function setup(project: TestProject): Promise<() => void> {
  const started = performance.now();
  cluster = await startPgCluster();
  const ready = performance.now();
  cluster.psql(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await applyPostgresMigrations(cluster.url(TEMPLATE_DATABASE), () => {});
  process.stderr.write(
    `db-postgresql: cluster on port ${cluster.port} up in ${Math.round(ready - started)} ms, template migrated in ${Math.round(performance.now() - ready)} ms\n`,
  );
  project.provide("pgServerUrl", cluster.url(""));
  return () => {
    cluster?.stop();
    cluster = null;
  };
}
