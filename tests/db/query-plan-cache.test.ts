// Prisma's query plans, kept for the reads a process repeats (the run page's live poll asks the same every second):
// a repeated read is answered from its kept plan with today's data, not yesterday's; reads with other values, writes
// and large requests are compiled each time; each use gets its own copy of a plan; the oldest plans go first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSkillVersion, getRunWithNames, importDataset, queryPlanCacheStats } from "@/lib/db";
import { cacheQueryPlans, clonePlan, MAX_CACHED_REQUEST_CHARS, PLANS_PER_COMPILER } from "@/lib/db/query-plan-cache";
import { createStoredRun, makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

/** A stand-in for the wasm bindings' class: each compile returns a new plan naming the request and a serial number. */
function stubCompilerClass() {
  let compiled = 0;
  class StubCompiler {
    compile(request: string): { request: string; serial: number; nested: { args: unknown[] } } {
      compiled += 1;
      return { request, serial: compiled, nested: { args: [request.length] } };
    }
  }
  cacheQueryPlans(StubCompiler);
  return { StubCompiler, compiledCount: () => compiled };
}

const read = (id: number) => `{"modelName":"Run","action":"findUnique","query":{"arguments":{"where":{"id":${id}}}}}`;

describe("cacheQueryPlans (a stand-in compiler)", () => {
  it("compiles a read once, and hands each use its own copy of the plan", () => {
    const { StubCompiler, compiledCount } = stubCompilerClass();
    const compiler = new StubCompiler();
    const first = compiler.compile(read(1));
    first.nested.args.push("changed by the engine");
    const second = compiler.compile(read(1));
    expect(compiledCount()).toBe(1);
    expect(second).toEqual({ request: read(1), serial: 1, nested: { args: [read(1).length] } });
    expect(second).not.toBe(first);
    second.serial = 99;
    expect(compiler.compile(read(1)).serial).toBe(1);
  });

  it("compiles reads with other values, writes and raw queries on their own", () => {
    const { StubCompiler, compiledCount } = stubCompilerClass();
    const compiler = new StubCompiler();
    expect(compiler.compile(read(1)).serial).toBe(1);
    expect(compiler.compile(read(2)).serial).toBe(2);
    const update = `{"modelName":"Run","action":"updateOne","query":{"arguments":{"where":{"id":1},"data":{"nDone":3}}}}`;
    expect(compiler.compile(update).serial).toBe(3);
    expect(compiler.compile(update).serial).toBe(4);
    const create = `{"modelName":"Skill","action":"createOne","query":{"arguments":{"data":{"name":"x"}}}}`;
    expect(compiler.compile(create).serial).toBe(5);
    expect(compiler.compile(create).serial).toBe(6);
    const raw = `{"action":"queryRaw","query":{"arguments":{"query":"SELECT ?","parameters":"[1]"},"selection":{}}}`;
    expect(compiler.compile(raw).serial).toBe(7);
    expect(compiler.compile(raw).serial).toBe(8);
    expect(compiler.compile(read(1)).serial).toBe(1);
    expect(compiledCount()).toBe(8);
  });

  it("compiles a request longer than the limit each time", () => {
    const { StubCompiler, compiledCount } = stubCompilerClass();
    const compiler = new StubCompiler();
    const long = read(1).replace("}}}", `,"padding":"${"x".repeat(MAX_CACHED_REQUEST_CHARS)}"}}}`);
    compiler.compile(long);
    compiler.compile(long);
    expect(compiledCount()).toBe(2);
  });

  it("keeps plans per compiler (per client), and lets the least recently used go", () => {
    const { StubCompiler, compiledCount } = stubCompilerClass();
    const [one, other] = [new StubCompiler(), new StubCompiler()];
    one.compile(read(0));
    other.compile(read(0));
    expect(compiledCount()).toBe(2);
    for (let id = 1; id < PLANS_PER_COMPILER; id++) one.compile(read(id));
    one.compile(read(0)); // used again: now the most recent
    one.compile(read(PLANS_PER_COMPILER)); // one too many: read(1), the least recently used, goes
    const before = compiledCount();
    one.compile(read(0));
    one.compile(read(2));
    expect(compiledCount()).toBe(before);
    one.compile(read(1));
    expect(compiledCount()).toBe(before + 1);
  });

  it("patches a class once", () => {
    const { StubCompiler, compiledCount } = stubCompilerClass();
    cacheQueryPlans(StubCompiler);
    const compiler = new StubCompiler();
    compiler.compile(read(1));
    compiler.compile(read(1));
    expect(compiledCount()).toBe(1);
  });
});

describe("clonePlan", () => {
  it("copies objects, arrays and Maps all the way down, and everything else as structuredClone does", () => {
    const at = new Date("2026-12-03T10:00:00Z");
    const plan = {
      type: "dataMap",
      args: { fragments: [{ type: "stringChunk", chunk: "SELECT 1" }, { type: "parameter" }], args: ["1", -1, 2n, null, true] },
      enums: new Map([["status", { a: ["x"] }]]),
      at,
      bytes: new Uint8Array([1, 2]),
    };
    const copy = clonePlan(plan) as typeof plan;
    expect(copy).toStrictEqual(structuredClone(plan));
    expect(copy.args.fragments[0]).not.toBe(plan.args.fragments[0]);
    expect(copy.enums.get("status")).not.toBe(plan.enums.get("status"));
    expect(copy.at).not.toBe(at);
    copy.args.args.push("more");
    copy.enums.get("status")!.a.push("y");
    expect(plan.args.args).toHaveLength(5);
    expect(plan.enums.get("status")!.a).toEqual(["x"]);
  });

  it("keeps a key named __proto__ as a key, not as the copy's prototype", () => {
    const plan = JSON.parse('{"where":{"__proto__":{"polluted":true},"id":1}}') as { where: Record<string, unknown> };
    const copy = clonePlan(plan) as typeof plan;
    expect(Object.keys(copy.where)).toEqual(["__proto__", "id"]);
    expect(Object.getPrototypeOf(copy.where)).toBe(Object.prototype);
    expect((copy.where as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copy.where, "__proto__")?.value).toEqual({ polluted: true });
  });
});

describe("the database's compiler", () => {
  let t: TestDatabase;
  beforeAll(() => {
    t = createTestDb();
  });
  afterAll(() => t.close());

  it("answers a repeated read from its kept plan, with the data as it is now", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(3), baseURL: "http://127.0.0.1:9/v1" });
    const other = await createStoredRun(t.db, { items: makeItems(5), baseURL: "http://127.0.0.1:9/v1" });
    await getRunWithNames(t.db, run.id);
    const before = queryPlanCacheStats();
    const first = await getRunWithNames(t.db, run.id);
    expect(queryPlanCacheStats().hits).toBeGreaterThan(before.hits);
    expect(first).toMatchObject({ id: run.id, itemsTotal: 3, nDone: 0 });

    await t.db.run.update({ where: { id: run.id }, data: { nDone: 2, emSum: 1.5 } });
    await t.db.dataset.update({ where: { id: first.datasetId }, data: { name: "renamed" } });
    expect(await getRunWithNames(t.db, run.id)).toMatchObject({ id: run.id, nDone: 2, emSum: 1.5, datasetName: "renamed" });
    expect(await getRunWithNames(t.db, other.id)).toMatchObject({ id: other.id, itemsTotal: 5, nDone: 0 });
  });

  it("compiles each write anew: two skill versions get their own times and numbers", async () => {
    const dataset = await importDataset(t.db, { name: "d", fileName: "d.jsonl", format: "jsonl", hash: "d", items: makeItems(1) });
    const one = await addSkillVersion(t.db, { name: "plan-cache", content: "First." });
    await new Promise((resolve) => setTimeout(resolve, 15));
    const two = await addSkillVersion(t.db, { name: "plan-cache", content: "Second." });
    expect(dataset.itemCount).toBe(1);
    expect(two.version.version).toBe(one.version.version + 1);
    expect(two.version.createdAt.getTime()).toBeGreaterThan(one.version.createdAt.getTime());
  });
});
