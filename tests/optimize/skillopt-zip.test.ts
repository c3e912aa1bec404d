// A SkillOpt output directory imported from a .zip (the Optimise page's form): the same optimisation as importing the
// directory; a broken, hostile or oversized zip is an error naming the zip (and the file in it), and nothing is stored.
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getOptimization, listOptimizations, listOptimizationSteps } from "@/lib/db";
import { importSkillOptDir } from "@/lib/optimize/skillopt-import";
import { importSkillOptZip, SkillOptZipError } from "@/lib/optimize/skillopt-zip";
import { createTestDb, type TestDatabase } from "../support/test-db";
import { makeZip } from "../support/zip-fixtures";

const FIXTURE = join("tests", "fixtures", "skillopt-output");
let t: TestDatabase | undefined;
afterEach(async () => t?.close());

async function nothingStored(db: TestDatabase["db"]) {
  expect(await listOptimizations(db)).toHaveLength(0);
  expect(await db.skill.count()).toBe(0);
  expect(await db.skillVersion.count()).toBe(0);
}

describe("importSkillOptZip", () => {
  it("imports the directory from its folder in the zip, as importing the directory does", async () => {
    t = createTestDb();
    const imported = await importSkillOptZip(t.db, makeZip({ dir: FIXTURE, prefix: "skillopt-output/" }), "my run.zip");
    expect(imported.skillName).toBe("my run");
    const optimization = await getOptimization(t.db, imported.id);
    expect(optimization).toMatchObject({ source: "imported", status: "completed" });
    const fromZip = await listOptimizationSteps(t.db, imported.id);

    const direct = await importSkillOptDir(t.db, FIXTURE, { name: "direct" });
    const fromDir = await listOptimizationSteps(t.db, direct.id);
    const shape = (stages: typeof fromZip) => stages.map(({ key, kind, action, recordJson, stateJson }) => ({ key, kind, action, recordJson, stateJson }));
    expect(shape(fromZip)).toEqual(shape(fromDir));
    expect(imported.versions).toBe(direct.versions);
  });

  it("imports a directory zipped at its root, named as asked", async () => {
    t = createTestDb();
    const imported = await importSkillOptZip(t.db, makeZip({ dir: FIXTURE, prefix: "", extra: { "__MACOSX/._history.json": "x" } }), "out.zip", { name: "topic skill" });
    expect(imported.skillName).toBe("topic skill");
    expect((await listOptimizationSteps(t.db, imported.id)).some((stage) => stage.kind === "step")).toBe(true);
  });

  it("refuses bytes that are not a zip, naming the file", async () => {
    t = createTestDb();
    await expect(importSkillOptZip(t.db, Buffer.from("PK\u0003\u0004 not really a zip"), "broken.zip")).rejects.toThrow(/^broken\.zip: not a readable zip file/);
    const half = makeZip({ dir: FIXTURE });
    await expect(importSkillOptZip(t.db, half.subarray(0, Math.floor(half.length / 2)), "cut.zip")).rejects.toThrow(/^cut\.zip: not a readable zip file/);
    await nothingStored(t.db);
  });

  it("refuses a zip with no SkillOpt directory, and one whose history.json is broken, naming the file inside", async () => {
    t = createTestDb();
    await expect(importSkillOptZip(t.db, makeZip({ extra: { "notes/readme.txt": "hello" } }), "other.zip")).rejects.toThrow("other.zip: no history.json at its top or in its only folder");
    const bad = makeZip({ dir: FIXTURE, prefix: "run/", replace: { "history.json": "[{\"step\": 1, \"epoch\": 1, " } });
    const error = await importSkillOptZip(t.db, bad, "bad.zip").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillOptZipError);
    expect((error as Error).message).toMatch(/^bad\.zip: history\.json: not valid JSON/);
    await nothingStored(t.db);
  });

  it("refuses entries that climb out of the folder, and a zip that unpacks past the limit", async () => {
    t = createTestDb();
    const escape = `skillboard-zip-escape-${process.pid}.txt`;
    await expect(importSkillOptZip(t.db, makeZip({ dir: FIXTURE, extra: { [`../../../../../../../tmp/${escape}`]: "x" } }), "slip.zip")).rejects.toThrow(/^slip\.zip: .*invalid relative path/);
    expect(existsSync(join(tmpdir(), escape))).toBe(false);
    const big = makeZip({ dir: FIXTURE, extra: { "padding.txt": "x".repeat(200_000) } });
    await expect(importSkillOptZip(t.db, big, "big.zip", { limits: { maxEntries: 100, maxUnpackedBytes: 100_000 } })).rejects.toThrow("big.zip: unpacks to more than");
    await expect(importSkillOptZip(t.db, big, "many.zip", { limits: { maxEntries: 3, maxUnpackedBytes: 10_000_000 } })).rejects.toThrow(/^many\.zip: \d+ entries: more than the 3 allowed/);
    await nothingStored(t.db);
  });
});
