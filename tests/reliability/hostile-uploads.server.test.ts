// The hostile-input corpus: every kind of malformed or oversized file the dataset and results uploads can receive,
// posted to a real `next start`. Each gets the right status and error (file, line, field), stores nothing (no dataset,
// item or run row, not even a hidden one), and the server keeps answering a health check within a second while it is
// processed. The large files are generated while they are sent, never written to the repository. The skill upload (a
// server action) gets the same treatment through the function behind it and through the CLI. The cases go one after
// another over the same kept-alive connections, as a client's uploads do: a file refused for its first bytes must not
// leave its connection unusable for the next request (it did: the next upload hung ~6 s, then was reset).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { uploadSkill } from "@/app/skills/upload-skill";
import { listSkillVersions } from "@/lib/db";
import { runCli } from "../support/cli";
import { createTestDb } from "../support/test-db";
import { HOSTILE_DATASETS, HOSTILE_RESULTS, HOSTILE_SKILLS, type HostileCase } from "./hostile-corpus";
import { withAppServer } from "../support/app-server-hooks";

const HEALTH_LIMIT_MS = 1000;

const app = withAppServer();

/** Every row an upload could leave behind, hidden unfinished imports included. */
async function stored(): Promise<Record<string, number>> {
  return { datasets: await app.db.dataset.count(), items: await app.db.datasetItem.count(), runs: await app.db.run.count(), results: await app.db.runResult.count() };
}

/** Posts the case's body and meanwhile asks GET /api/auth/check every 100 ms; returns the answer and the slowest check. */
async function postWhileProbing(url: string, hostile: HostileCase): Promise<{ status: number; body: Record<string, unknown>; slowestHealthMs: number }> {
  let slowest = 0;
  let posting = true;
  const probe = async () => {
    const started = performance.now();
    const response = await fetch(`${app.server.baseURL}/api/auth/check`, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
  };
  const probing = (async () => {
    while (posting) {
      await probe();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    const body = hostile.body();
    const response = await fetch(url, {
      method: "POST",
      body: body instanceof Uint8Array ? body : streamOf(body),
      ...(body instanceof Uint8Array ? {} : { duplex: "half" }),
    } as RequestInit);
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, slowestHealthMs: slowest };
  } finally {
    posting = false;
    await probing;
    await probe();
  }
}

function streamOf(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

function expectAnswer(hostile: HostileCase, answer: { status: number; body: Record<string, unknown> }): void {
  expect(answer.status, hostile.name).toBe(hostile.status);
  if (hostile.error) expect(String(answer.body.error), hostile.name).toMatch(hostile.error);
}

describe("hostile dataset uploads (POST /api/datasets on next start)", () => {
  it.each(HOSTILE_DATASETS.map((hostile) => [hostile.name, hostile] as const))("%s", async (_name, hostile) => {
    const before = await stored();
    const query = new URLSearchParams({ name: hostile.name, fileName: hostile.fileName });
    const answer = await postWhileProbing(`${app.server.baseURL}/api/datasets?${query}`, hostile);
    expectAnswer(hostile, answer);
    expect(answer.slowestHealthMs, `${hostile.name}: slowest health check`).toBeLessThan(HEALTH_LIMIT_MS);
    if (hostile.status >= 400) expect(await stored(), hostile.name).toEqual(before);
    else await hostile.check?.(app.db, answer.body);
  }, 120_000);
});

describe("hostile results imports (POST /api/runs/import on next start)", () => {
  it.each(HOSTILE_RESULTS.map((hostile) => [hostile.name, hostile] as const))("%s", async (_name, hostile) => {
    const before = await stored();
    const answer = await postWhileProbing(`${app.server.baseURL}/api/runs/import?${new URLSearchParams({ fileName: hostile.fileName })}`, hostile);
    expectAnswer(hostile, answer);
    expect(answer.slowestHealthMs, `${hostile.name}: slowest health check`).toBeLessThan(HEALTH_LIMIT_MS);
    if (hostile.status >= 400) expect(await stored(), hostile.name).toEqual(before);
  }, 120_000);
});

describe("hostile skill uploads (the form's action, and the CLI)", () => {
  it.each(HOSTILE_SKILLS.map((hostile) => [hostile.name, hostile] as const))("%s", async (_name, hostile) => {
    const t = createTestDb();
    try {
      const bytes = hostile.body() as Uint8Array;
      const form = new FormData();
      form.set("name", "hostile");
      form.set("fileName", hostile.fileName);
      form.set("content", new Blob([Buffer.from(bytes)]));
      const state = await uploadSkill(t.db, form);
      expect(state.ok, hostile.name).toBe(false);
      expect(!state.ok && state.error, hostile.name).toMatch(hostile.error!);
      const file = join(t.dir, hostile.fileName);
      writeFileSync(file, bytes);
      const cli = await runCli(["skill", "add", file], { databaseUrl: t.url });
      expect(cli.code, hostile.name).toBe(2);
      expect(await listSkillVersions(t.db)).toEqual([]);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe("hostile dataset files given to the CLI (dataset import)", () => {
  const chosen = ["a CSV with 1,000,000 columns (9.9 MB)", "a 5 MB question", "a JSON document nested 3,000 levels deep", "Latin-1 text (not UTF-8)"];
  it.each(HOSTILE_DATASETS.filter((hostile) => chosen.includes(hostile.name)).map((hostile) => [hostile.name, hostile] as const))("%s", async (_name, hostile) => {
    const t = createTestDb();
    try {
      const file = join(t.dir, hostile.fileName);
      writeFileSync(file, hostile.body() as Uint8Array);
      const cli = await runCli(["dataset", "import", file], { databaseUrl: t.url });
      expect(cli.code, cli.stderr).toBe(2);
      expect(cli.stderr).toMatch(hostile.error!);
      expect(cli.stdout).toBe("");
      expect(await t.db.dataset.count()).toBe(0);
    } finally {
      await t.close();
    }
  }, 60_000);
});
