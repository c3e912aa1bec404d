// Prisma's plans as templates by request shape (lib/db/query-plan-templates.ts), against Prisma's real query compiler:
// the template of a shape, filled with another request's values, is exactly the plan the compiler makes for that
// request, for the kinds of queries the application makes (reads, writes, raw SQL, DateTimes, increments).
import { QueryCompiler as PostgresCompiler } from "@prisma/client/runtime/query_compiler_bg.postgresql.mjs";
import { QueryCompiler as SqliteCompiler } from "@prisma/client/runtime/query_compiler_bg.sqlite.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSkillVersion, importDataset } from "@/lib/db";
import { numberedPlaceholders } from "@/lib/db/bulk-write";
import { fillTemplate, shapeOf, verifiedTemplate } from "@/lib/db/query-plan-templates";
import { createTestDb, type TestDatabase } from "../support/test-db";

interface Compiled {
  compile: (request: string) => unknown;
  request: string;
  plan: unknown;
}

const compiled: Compiled[] = [];
const restores: (() => void)[] = [];
let t: TestDatabase;

beforeAll(() => {
  // Every compilation the clients make, with the compiler that made it.
  for (const compilerClass of [SqliteCompiler, PostgresCompiler]) {
    const proto = compilerClass.prototype as { compile(request: string): unknown };
    const original = proto.compile;
    proto.compile = function (this: object, request: string) {
      const plan = original.call(this, request);
      compiled.push({ compile: (other) => original.call(this, other), request, plan: structuredClone(plan) });
      return plan;
    };
    restores.push(() => (proto.compile = original));
  }
  t = createTestDb();
});
afterAll(async () => {
  for (const restore of restores) restore();
  await t.close();
});

const item = (id: string) => ({ id, question: `Q ${id}?`, context: `[DOC] [TLE] ${id} [PAR] text`, answers: [id] });

/** The application's kinds of queries, made twice with other values each time. */
async function queriesWith(round: number) {
  const name = `set-${round}`;
  const dataset = await importDataset(t.db, { name, fileName: `${name}.jsonl`, format: "jsonl", hash: `hash-${round}`, items: [item(`a${round}`), item(`b${round}`)] });
  const { version } = await addSkillVersion(t.db, { name: `skill-${round}`, content: `# Skill ${round}\n`, note: `note ${round}` });
  await t.db.dataset.findUnique({ where: { id: dataset.id } });
  await t.db.dataset.findMany({ where: { itemCount: { gte: round } }, orderBy: { id: "desc" }, take: 5 + round, skip: round });
  await t.db.dataset.update({ where: { id: dataset.id }, data: { importHeartbeatAt: new Date(Date.UTC(2026, 0, round + 1, 12, 30, 15, 250)) } });
  await t.db.datasetItem.count({ where: { datasetId: dataset.id, externalId: { in: [`a${round}`, `b${round}`] } } });
  await t.db.skillVersion.findFirst({ where: { skillId: version.skillId }, orderBy: { version: "desc" } });
  const sql = `SELECT COUNT(*) AS n FROM "DatasetItem" WHERE "datasetId" = ? AND "ordinal" >= ?`;
  await t.db.$queryRawUnsafe(t.url.startsWith("file:") ? sql : numberedPlaceholders(sql), dataset.id, round);
  // A filter whose plan holds the value in another form (`%value%`): no template.
  await t.db.dataset.findMany({ where: { name: { contains: `et-${round}` } } });
}

describe("a plan template", () => {
  it("filled with another request's values is the plan the compiler makes for that request", async () => {
    await queriesWith(1);
    await queriesWith(2);
    const byShape = new Map<string, Compiled[]>();
    for (const entry of compiled) {
      const shaped = shapeOf(entry.request);
      if (shaped) byShape.set(shaped.shape, [...(byShape.get(shaped.shape) ?? []), entry]);
    }
    let proven = 0;
    let refused = 0;
    for (const [shape, entries] of byShape) {
      const first = entries[0]!;
      const others = entries.filter((entry) => entry.request !== first.request);
      if (others.length === 0) continue;
      const template = verifiedTemplate(first.compile, shapeOf(first.request)!, first.plan);
      if (template === null) {
        refused += 1;
        expect(shape, "only the contains filter has no template").toMatch(/"contains":/);
        continue;
      }
      proven += 1;
      for (const other of others) expect(fillTemplate(template, shapeOf(other.request)!.values), other.request).toStrictEqual(other.plan);
    }
    // Creates, updates, an upsert, finds, counts, a raw query: each of them seen with two sets of values.
    expect(proven).toBeGreaterThanOrEqual(10);
    expect(refused).toBe(1);
  });
});

describe("a request's shape", () => {
  it("is the same for other values, and not for other booleans, nulls, sort orders or list lengths", () => {
    const request = (id: number, name: string, done: boolean | null, order: string, ids: number[]) =>
      JSON.stringify({ modelName: "Run", action: "findMany", query: { arguments: { where: { id, name, done, id2: { in: ids } }, orderBy: { id: order } } } });
    const shape = (text: string) => shapeOf(text)!.shape;
    expect(shape(request(1, "a", true, "asc", [1, 2]))).toBe(shape(request(99, "zz", true, "asc", [7, 8])));
    expect(shape(request(1, "a", true, "asc", [1, 2]))).not.toBe(shape(request(1, "a", false, "asc", [1, 2])));
    expect(shape(request(1, "a", true, "asc", [1, 2]))).not.toBe(shape(request(1, "a", null, "asc", [1, 2])));
    expect(shape(request(1, "a", true, "asc", [1, 2]))).not.toBe(shape(request(1, "a", true, "desc", [1, 2])));
    expect(shape(request(1, "a", true, "asc", [1, 2]))).not.toBe(shape(request(1, "a", true, "asc", [1, 2, 3])));
    expect(shapeOf(request(5, "b", true, "asc", []))!.values).toEqual([{ kind: "int", value: 5 }, { kind: "string", value: "b" }]);
  });

  it("marks a raw query's parameters inside their JSON text, and a DateTime's instant", () => {
    const raw = (a: number, b: string) => JSON.stringify({ action: "queryRaw", query: { arguments: { query: "SELECT ?, ?", parameters: JSON.stringify([a, b]) } } });
    expect(shapeOf(raw(1, "x"))!.shape).toBe(shapeOf(raw(2, "y"))!.shape);
    const at = (iso: string) => JSON.stringify({ modelName: "Run", action: "updateMany", query: { arguments: { data: { heartbeatAt: { $type: "DateTime", value: iso } } } } });
    expect(shapeOf(at("2026-01-01T00:00:00.000Z"))!.shape).toBe(shapeOf(at("2027-05-05T10:00:00.500Z"))!.shape);
    expect(shapeOf(at("2026-01-01T00:00:00.000Z"))!.values).toEqual([{ kind: "date", value: "2026-01-01T00:00:00.000Z" }]);
  });

  it("fills a copy: what the engine does to one plan never reaches the template or another plan", () => {
    const template = { args: ["\u0001skillboard-value-1\u0001", "1000015838"], map: new Map([["k", ["\u0001skillboard-value-1\u0001"]]]) };
    const values = shapeOf(JSON.stringify({ a: "real", b: 3 }))!.values;
    const plan = fillTemplate(template, values) as typeof template;
    expect(plan).toStrictEqual({ args: ["real", "3"], map: new Map([["k", ["real"]]]) });
    plan.map.get("k")!.push("changed");
    expect(template.map.get("k")).toEqual(["\u0001skillboard-value-1\u0001"]);
  });
});
