// The runs route handler and server actions themselves, on bad input: each answers with a clear error
// (400/404 JSON, or a message for the page) and changes nothing; with a token configured, an action without it
// does nothing at all. They use the process's database (getDb), pointed here at a fresh test database before its
// first use; actions are called inside Next's request scope, as Next calls them for a POST.
// First: sets up what Next's request scope needs before next/headers loads.
import { inRequestScope, LOOPBACK_HEADERS } from "../support/request-scope";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addSkillVersion, getDb, importDataset, listRunRecords, getRun, listSkillVersions } from "@/lib/db";
import { GET } from "@/app/api/runs/[id]/live/route";
import { SIGN_IN_AGAIN } from "@/app/_lib/guarded-action";
import { cancelRunAction, removeKeptWorkspacesAction, resumeRunAction, retryFailedItemsAction, runAgainAction, startRunAction } from "@/app/runs/actions";
import { uploadSkillAction } from "@/app/skills/actions";
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
  queuedRunId = started.data.runId;
});
afterAll(async () => {
  await getDb().$disconnect();
  await t.close();
});

const live = (id: string) => GET(new Request(`http://127.0.0.1/api/runs/${id}/live`, { headers: { host: "127.0.0.1" } }), { params: Promise.resolve({ id }) });
const idForm = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
};

describe("GET /api/runs/[id]/live", () => {
  it("answers 400 with a JSON error for an id that is not a positive whole number", async () => {
    for (const id of ["abc", "12abc", "-1", "0", "1.5", "1e3", ""]) {
      const response = await live(id);
      expect(response.status, id).toBe(400);
      expect(await response.json()).toEqual({ error: "run id must be a positive whole number", fields: { id: "run id must be a positive whole number" } });
    }
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

/** An action called by a same-origin request on loopback with no token configured: what the dashboard's forms send. */
const asBrowser = <T>(call: () => Promise<T>) => inRequestScope(LOOPBACK_HEADERS, call);

describe("run actions", () => {
  it("reject a missing or malformed run id", async () => {
    expect(await asBrowser(() => cancelRunAction(idForm({})))).toEqual({ ok: false, error: "run id is required" });
    expect(await asBrowser(() => resumeRunAction(idForm({ runId: "abc" })))).toEqual({ ok: false, error: "run id must be a positive whole number" });
    expect(await asBrowser(() => retryFailedItemsAction(idForm({ runId: "1; drop" })))).toEqual({ ok: false, error: "run id must be a positive whole number" });
    expect(await asBrowser(() => runAgainAction(idForm({ runId: String(queuedRunId), skillVersionId: "v2" })))).toEqual({ ok: false, error: "Skill version must be an id" });
  });

  it("report an unknown run", async () => {
    expect(await asBrowser(() => cancelRunAction(idForm({ runId: "999" })))).toEqual({ ok: false, error: "run 999 not found" });
    expect(await asBrowser(() => runAgainAction(idForm({ runId: "999", skillVersionId: "1" })))).toEqual({ ok: false, error: "run 999 not found" });
  });

  it("refuse to resume or retry a run that has not stopped", async () => {
    const resume = await asBrowser(() => resumeRunAction(idForm({ runId: String(queuedRunId) })));
    expect(resume).toEqual({ ok: false, error: expect.stringContaining("only an interrupted, cancelled or failed run can be resumed") });
    const retry = await asBrowser(() => retryFailedItemsAction(idForm({ runId: String(queuedRunId) })));
    expect(retry).toEqual({ ok: false, error: expect.stringContaining("wait for it to stop first") });
  });

  it("start run: returns field errors for an empty form and stores nothing", async () => {
    const before = (await listRunRecords(t.db)).length;
    const result = await asBrowser(() => startRunAction(null, new FormData()));
    expect(result.ok).toBe(false);
    expect(result.error).toBe("The run was not started: see the messages under the fields above.");
    expect(result.fields).toMatchObject({ datasetId: "Choose a dataset", concurrency: "Concurrency is required" });
    expect((await listRunRecords(t.db)).length).toBe(before);
  });
});

describe("every server action, with SKILLBOARD_TOKEN set", () => {
  const TOKEN = "an-action-test-token-0123456789";
  const original = process.env.SKILLBOARD_TOKEN;
  afterEach(() => {
    if (original === undefined) delete process.env.SKILLBOARD_TOKEN;
    else process.env.SKILLBOARD_TOKEN = original;
  });
  const refused = { ok: false, error: SIGN_IN_AGAIN };

  it("refuses a request without the token and changes nothing", async () => {
    process.env.SKILLBOARD_TOKEN = TOKEN;
    const form = idForm({ runId: String(queuedRunId) });
    const skill = idForm({ name: "refused", content: "# Never stored\n" });
    for (const headers of [LOOPBACK_HEADERS, { ...LOOPBACK_HEADERS, authorization: "Bearer not-the-token-0123456789" }]) {
      const call = <T>(action: () => Promise<T>) => inRequestScope(headers, action);
      expect(await call(() => cancelRunAction(form))).toEqual(refused);
      expect(await call(() => resumeRunAction(form))).toEqual(refused);
      expect(await call(() => retryFailedItemsAction(form))).toEqual(refused);
      expect(await call(() => runAgainAction(idForm({ runId: String(queuedRunId), skillVersionId: "1" })))).toEqual(refused);
      expect(await call(() => removeKeptWorkspacesAction(form))).toEqual(refused);
      expect(await call(() => startRunAction(null, new FormData()))).toEqual(refused);
      expect(await call(() => uploadSkillAction(null, skill))).toEqual(refused);
    }
    expect(await getRun(t.db, queuedRunId)).toMatchObject({ status: "queued", cancelRequestedAt: null });
    expect((await listSkillVersions(t.db)).map((version) => version.skillName)).not.toContain("refused");
  });

  it("runs the action for a request with the token (bearer)", async () => {
    process.env.SKILLBOARD_TOKEN = TOKEN;
    const withToken = { ...LOOPBACK_HEADERS, authorization: `Bearer ${TOKEN}` };
    expect(await inRequestScope(withToken, () => cancelRunAction(idForm({ runId: "999" })))).toEqual({ ok: false, error: "run 999 not found" });
    const empty = await inRequestScope(withToken, () => uploadSkillAction(null, idForm({ name: "s", content: " " })));
    expect(empty).toMatchObject({ ok: false, fields: { content: expect.stringMatching(/empty/) } });
  });

  it("refuses a cross-site post as the proxy would, and any call outside a request", async () => {
    process.env.SKILLBOARD_TOKEN = TOKEN;
    const crossSite = { host: "127.0.0.1:3000", origin: "https://evil.example", authorization: `Bearer ${TOKEN}` };
    expect(await inRequestScope(crossSite, () => cancelRunAction(idForm({ runId: String(queuedRunId) })))).toEqual({ ok: false, error: "cross-origin request refused" });
    await expect(cancelRunAction(idForm({ runId: String(queuedRunId) }))).rejects.toThrow(/outside a request scope/);
    expect(await getRun(t.db, queuedRunId)).toMatchObject({ cancelRequestedAt: null });
  });
});
