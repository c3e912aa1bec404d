// The runs route handler and server actions themselves, on bad input: each answers with a clear error
// (400/404 JSON, or a message for the page) and changes nothing. They use the process's database
// (getDb), pointed here at a fresh test database before its first use.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSkillVersion, getDb, importDataset, listRunRecords } from "@/lib/db";
import { GET } from "@/app/api/runs/[id]/live/route";
import { cancelRunAction, resumeRunAction, retryFailedItemsAction, runAgainAction, startRunAction } from "@/app/runs/actions";
import { startRunFromForm } from "@/app/runs/_lib/start-run-form";
import { makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let queuedRunId: number;
beforeAll(async () => {
  t = createTestDb();
  process.env.DATABASE_URL = t.url;
  const dataset = await importDataset(t.db, { name: "d", fileName: "d.jsonl", format: "jsonl", hash: "h", items: makeItems(5) });
  const { version } = await addSkillVersion(t.db, { name: "s", content: "Answer." });
  const form = new FormData();
  for (const [key, value] of Object.entries({ datasetId: dataset.id, skillVersionId: version.id, backend: "baseline", concurrency: 2, maxTurns: 1, execTimeoutS: 5, taskTimeoutS: 5, maxCompletionTokens: 10, maxRetries: 0 })) {
    form.set(key, String(value));
  }
  const started = await startRunFromForm(t.db, form, {});
  if (!started.ok) throw new Error(JSON.stringify(started));
  queuedRunId = started.runId;
});
afterAll(async () => {
  await getDb().$disconnect();
  await t.close();
});

const live = (id: string) => GET(new Request(`http://127.0.0.1/api/runs/${id}/live`), { params: Promise.resolve({ id }) });
const idForm = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
};

describe("GET /api/runs/[id]/live", () => {
  it("answers 400 with a JSON error for a non-numeric id", async () => {
    const response = await live("abc");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "run id must be a positive whole number" });
  });

  it("answers 404 with a JSON error for an unknown run", async () => {
    const response = await live("999");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "run 999 not found" });
  });

  it("answers a known run uncached", async () => {
    const response = await live(String(queuedRunId));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await response.json()).run).toMatchObject({ id: queuedRunId, status: "queued", backend: "baseline" });
  });
});

describe("run actions", () => {
  it("reject a missing or malformed run id", async () => {
    expect(await cancelRunAction(idForm({}))).toEqual({ ok: false, error: "run id is required" });
    expect(await resumeRunAction(idForm({ runId: "abc" }))).toEqual({ ok: false, error: "run id must be a positive whole number" });
    expect(await retryFailedItemsAction(idForm({ runId: "1; drop" }))).toEqual({ ok: false, error: "run id must be a positive whole number" });
    expect(await runAgainAction(idForm({ runId: String(queuedRunId), skillVersionId: "v2" }))).toEqual({ ok: false, error: "Skill version must be an id" });
  });

  it("report an unknown run", async () => {
    expect(await cancelRunAction(idForm({ runId: "999" }))).toEqual({ ok: false, error: "run 999 not found" });
    expect(await runAgainAction(idForm({ runId: "999", skillVersionId: "1" }))).toEqual({ ok: false, error: "run 999 not found" });
  });

  it("refuse to resume or retry a run that has not stopped", async () => {
    const resume = await resumeRunAction(idForm({ runId: String(queuedRunId) }));
    expect(resume).toEqual({ ok: false, error: expect.stringContaining("only an interrupted, cancelled or failed run can be resumed") });
    const retry = await retryFailedItemsAction(idForm({ runId: String(queuedRunId) }));
    expect(retry).toEqual({ ok: false, error: expect.stringContaining("wait for it to stop first") });
  });

  it("start run: returns field errors for an empty form and stores nothing", async () => {
    const before = (await listRunRecords(t.db)).length;
    const result = await startRunAction(null, new FormData());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors).toMatchObject({ datasetId: "Choose a dataset", concurrency: "Concurrency is required" });
    expect((await listRunRecords(t.db)).length).toBe(before);
  });
});
