// The HTTP edge as a script sees it: every route handler and server action goes through the one guard, and every
// route that takes an id answers a malformed one with 400 and an unknown one with 404, both with the one JSON error
// body. Handlers are called as Next calls them, on the process's database (getDb), pointed here at a fresh test
// database before its first use.
// First: sets up what Next's request scope needs before next/headers loads (the actions files import it).
import "../support/request-scope";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isGuardedAction } from "@/app/_lib/guarded-action";
import { isGuardedRoute, type GuardedRouteHandler } from "@/app/_lib/http";
import { getDb } from "@/lib/db";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeAll(() => {
  t = createTestDb();
  process.env.DATABASE_URL = t.url;
});
afterAll(async () => {
  await getDb().$disconnect();
  await t.close();
});

const APP_DIR = resolve("app");
const appFiles = (readdirSync(APP_DIR, { recursive: true }) as string[]).map((file) => file.split("\\").join("/"));
const routeFiles = appFiles.filter((file) => /(^|\/)route\.ts$/.test(file)).sort();
const actionFiles = appFiles.filter((file) => /\.tsx?$/.test(file) && /^\s*["']use server["']/.test(readFileSync(join(APP_DIR, file), "utf8"))).sort();
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

describe("the guard", () => {
  it("wraps every exported handler of every route", async () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(13);
    for (const file of routeFiles) {
      const exported = (await import(join(APP_DIR, file))) as Record<string, unknown>;
      const handlers = HTTP_METHODS.filter((method) => method in exported);
      expect(handlers.length, file).toBeGreaterThan(0);
      for (const method of handlers) expect(isGuardedRoute(exported[method]), `${method} in app/${file}`).toBe(true);
    }
  });

  it("wraps every exported server action", async () => {
    expect(actionFiles).toEqual(["_home/actions.ts", "optimize/actions.ts", "runs/actions.ts", "skills/actions.ts"]);
    for (const file of actionFiles) {
      const exported = (await import(join(APP_DIR, file))) as Record<string, unknown>;
      expect(Object.keys(exported).length, file).toBeGreaterThan(0);
      for (const [name, action] of Object.entries(exported)) expect(isGuardedAction(action), `${name} in app/${file}`).toBe(true);
    }
  });
});

describe("the guard, with SKILLBOARD_TOKEN set", () => {
  const TOKEN = "a-route-test-token-0123456789";
  const original = process.env.SKILLBOARD_TOKEN;
  afterEach(() => {
    if (original === undefined) delete process.env.SKILLBOARD_TOKEN;
    else process.env.SKILLBOARD_TOKEN = original;
  });
  const live = async (id: string, headers: Record<string, string>) => {
    const { GET } = (await import("@/app/api/runs/[id]/live/route")) as { GET: GuardedRouteHandler };
    return GET(new Request(`http://127.0.0.1:3000/api/runs/${id}/live`, { headers: { host: "127.0.0.1:3000", ...headers } }), { params: Promise.resolve({ id }) });
  };

  it("answers 401 before it reads the id, and lets the token through to the id rule", async () => {
    process.env.SKILLBOARD_TOKEN = TOKEN;
    for (const id of ["abc", "999999"]) {
      const refused = await live(id, {});
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="skillboard"');
      expect(await refused.json()).toEqual({ error: "authentication required" });
    }
    expect((await live("abc", { authorization: `Bearer ${TOKEN}` })).status).toBe(400);
    expect((await live("999999", { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
  });

  it("refuses an upload the proxy does not see (POST /api/datasets) without the token, storing nothing", async () => {
    process.env.SKILLBOARD_TOKEN = TOKEN;
    const { POST } = (await import("@/app/api/datasets/route")) as { POST: GuardedRouteHandler };
    const body = `${JSON.stringify({ id: "a", question: "q?", answers: ["x"] })}\n`;
    const upload = (headers: Record<string, string>) =>
      POST(new Request("http://127.0.0.1:3000/api/datasets?name=d&fileName=d.jsonl", { method: "POST", body, headers: { host: "127.0.0.1:3000", ...headers } }), { params: Promise.resolve({}) });
    expect((await upload({})).status).toBe(401);
    expect(await getDb().dataset.count()).toBe(0);
    expect((await upload({ authorization: `Bearer ${TOKEN}` })).status).toBe(201);
    expect(await getDb().dataset.count()).toBe(1);
  });
});

interface IdCase {
  /** The route file under app/. */
  route: string;
  method?: "GET" | "POST";
  /** The URL path and query, and the path parameters Next would hand over, for an id written as `id`. */
  request(id: string): { url: string; params?: Record<string, string>; body?: string };
  /** The field a malformed id is reported under, and its message. */
  field: string;
  malformed: string;
}

const runRoute = (route: string, suffix: string, query = ""): IdCase => ({
  route,
  request: (id) => ({ url: `/api/runs/${id}/${suffix}${query}`, params: { id } }),
  field: "id",
  malformed: "run id must be a positive whole number",
});
// A seed results row: the import reads the file before it looks the dataset up.
const RESULTS_ROW = JSON.stringify({ id: "a", question: "q?", em: 1.0, f1: 1.0, sub_em: 1.0, hard: 1, soft: 1.0, predicted_answer: "x", gold_answers: ["x"], response: "", fail_reason: "", agent_ok: true, n_turns: 1 });

/** Every route that takes an id, in its path or its query. */
const ID_ROUTES: IdCase[] = [
  runRoute("api/runs/[id]/live/route.ts", "live"),
  runRoute("api/runs/[id]/items/route.ts", "items", "?filter=all"),
  runRoute("api/runs/[id]/results/route.ts", "results", "?format=csv"),
  runRoute("api/runs/[id]/summary/route.ts", "summary"),
  runRoute("api/runs/[id]/workspace-file/route.ts", "workspace-file", "?item=q1&path=task.md"),
  {
    route: "api/datasets/[id]/items/route.ts",
    request: (id) => ({ url: `/api/datasets/${id}/items`, params: { id } }),
    field: "id",
    malformed: "dataset id must be a positive whole number",
  },
  {
    route: "skills/[id]/versions/[versionId]/download/route.ts",
    request: (id) => ({ url: `/skills/1/versions/${id}/download`, params: { id: "1", versionId: id } }),
    field: "versionId",
    malformed: "skill version id must be a positive whole number",
  },
  {
    route: "skills/[id]/versions/[versionId]/download/route.ts",
    request: (id) => ({ url: `/skills/${id}/versions/1/download`, params: { id, versionId: "1" } }),
    field: "id",
    malformed: "skill id must be a positive whole number",
  },
  {
    route: "api/optimizations/[id]/live/route.ts",
    request: (id) => ({ url: `/api/optimizations/${id}/live`, params: { id } }),
    field: "id",
    malformed: "optimization id must be a positive whole number",
  },
  {
    route: "api/optimizations/[id]/calls/[callId]/route.ts",
    request: (id) => ({ url: `/api/optimizations/${id}/calls/1`, params: { id, callId: "1" } }),
    field: "id",
    malformed: "optimization id must be a positive whole number",
  },
  {
    route: "api/optimizations/[id]/calls/[callId]/route.ts",
    request: (id) => ({ url: `/api/optimizations/1/calls/${id}`, params: { id: "1", callId: id } }),
    field: "callId",
    malformed: "call id must be a positive whole number",
  },
  {
    route: "compare/download/route.ts",
    request: (id) => ({ url: `/compare/download?runs=999997,${encodeURIComponent(id)}` }),
    field: "runs",
    malformed: "is not a run id (a positive whole number)",
  },
  {
    route: "api/runs/import/route.ts",
    method: "POST",
    request: (id) => ({ url: `/api/runs/import?fileName=r.jsonl&datasetId=${encodeURIComponent(id)}`, body: `${RESULTS_ROW}\n` }),
    field: "datasetId",
    malformed: "dataset id must be a positive whole number",
  },
];

async function call(entry: IdCase, id: string): Promise<Response> {
  const { url, params = {}, body } = entry.request(id);
  const method = entry.method ?? "GET";
  const exported = (await import(join(APP_DIR, entry.route))) as Record<string, GuardedRouteHandler>;
  const request = new Request(`http://127.0.0.1:3000${url}`, {
    method,
    headers: { host: "127.0.0.1:3000", ...(method === "POST" ? { origin: "http://127.0.0.1:3000" } : {}) },
    ...(body === undefined ? {} : { body }),
  });
  return exported[method]!(request, { params: Promise.resolve(params) });
}

async function errorBody(response: Response): Promise<unknown> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return response.json();
}

describe("ids on every route that takes one", () => {
  it("covers every route file with an id in its path", () => {
    const withIdSegment = routeFiles.filter((file) => /\[(id|versionId)\]/.test(file));
    expect(withIdSegment.filter((file) => !ID_ROUTES.some((entry) => entry.route === file))).toEqual([]);
  });

  it.each(ID_ROUTES.map((entry) => [`${entry.route} (${entry.field})`, entry] as const))("%s: a malformed id is 400 with the field's message", async (_name, entry) => {
    for (const id of ["abc", "12abc", "-1", "0", "1.5", "1e3"]) {
      const response = await call(entry, id);
      expect(response.status, id).toBe(400);
      const body = (await errorBody(response)) as { error: string; fields: Record<string, string> };
      expect(Object.keys(body).sort()).toEqual(entry.route.includes("import") ? ["error", "fields", "issues"] : ["error", "fields"]);
      expect(body.fields[entry.field], id).toContain(entry.malformed);
      expect(body.error).toContain(entry.malformed);
    }
  });

  it.each(ID_ROUTES.map((entry) => [`${entry.route} (${entry.field})`, entry] as const))("%s: an unknown id is 404 with an error", async (_name, entry) => {
    const response = await call(entry, "999999");
    expect(response.status).toBe(404);
    const body = (await errorBody(response)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error).toMatch(/not found|no such|There is no run #999997/);
  });
});

describe("GET /compare/download errors", () => {
  const get = (query: string) => call({ ...ID_ROUTES.find((entry) => entry.route === "compare/download/route.ts")!, request: () => ({ url: `/compare/download${query}` }) }, "");

  it("answers fewer than two runs with 400 JSON naming the parameter", async () => {
    for (const query of ["", "?runs=", "?runs=12", "?runs=12,12"]) {
      const response = await get(query);
      expect(response.status, query).toBe(400);
      const message = "Name at least two runs: ?runs=12,15 (the first is the reference).";
      expect(await errorBody(response)).toEqual({ error: message, fields: { runs: message } });
    }
  });

  it("names the part that is not a run id", async () => {
    const response = await get("?runs=1&runs=2,x7");
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toEqual({ error: '"x7" is not a run id (a positive whole number)', fields: { runs: '"x7" is not a run id (a positive whole number)' } });
  });
});

describe("query parameters", () => {
  const runCall = (route: string, url: string) => call({ ...ID_ROUTES.find((entry) => entry.route === route)!, request: () => ({ url, params: { id: "1" } }) }, "");

  it("GET /api/runs/[id]/results: an unknown format is 400 naming the formats", async () => {
    const response = await runCall("api/runs/[id]/results/route.ts", "/api/runs/1/results?format=xlsx");
    expect(response.status).toBe(400);
    const message = "format must be one of csv, jsonl, seed";
    expect(await errorBody(response)).toEqual({ error: message, fields: { format: message } });
  });

  it("GET /api/runs/[id]/workspace-file: a missing item or path is 400 naming it", async () => {
    const noItem = await runCall("api/runs/[id]/workspace-file/route.ts", "/api/runs/1/workspace-file?path=task.md");
    expect(noItem.status).toBe(400);
    expect(await errorBody(noItem)).toEqual({ error: "item is required", fields: { item: "item is required" } });
    const neither = await runCall("api/runs/[id]/workspace-file/route.ts", "/api/runs/1/workspace-file");
    expect(neither.status).toBe(400);
    expect(await errorBody(neither)).toEqual({ error: "item is required; path is required", fields: { item: "item is required", path: "path is required" } });
  });
});
