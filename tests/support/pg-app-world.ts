/**
 * For the app tests on PostgreSQL (their vitest project has no PostgreSQL of its own): a throwaway cluster with one
 * database, a folder for dataset files, and the test model server, made in beforeAll and removed in afterAll. Call it
 * before anything that uses them registers its own hooks (the app server, the workers): afterAll hooks run in reverse,
 * so those stop first and the cluster last.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./fake-openai-server";
import { startPgCluster, type PgCluster } from "./pg-cluster";

export interface PgAppWorld {
  /** postgresql://… of the database (set in beforeAll). */
  url: string;
  dir: string;
  model: FakeOpenAIServer;
}

export function usePgAppWorld(database: string, modelLatencyMs: number): PgAppWorld {
  let cluster: PgCluster | undefined;
  const world = { url: "", dir: "", model: undefined as FakeOpenAIServer | undefined };
  beforeAll(async () => {
    cluster = await startPgCluster();
    cluster.psql(`CREATE DATABASE ${database}`);
    world.url = cluster.url(database);
    world.dir = mkdtempSync(join(tmpdir(), `skillboard-${database}-`));
    world.model = await startFakeOpenAIServer({ latencyMs: modelLatencyMs, recordRequests: false });
  });
  afterAll(async () => {
    await world.model?.close();
    cluster?.stop();
    if (world.dir) rmSync(world.dir, { recursive: true, force: true });
  }, 30_000);
  return {
    get url() {
      return world.url;
    },
    get dir() {
      return world.dir;
    },
    get model() {
      if (!world.model) throw new Error("usePgAppWorld: used before its beforeAll ran");
      return world.model;
    },
  };
}
