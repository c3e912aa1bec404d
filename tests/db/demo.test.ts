// The demo seeded on first start: once, only into an empty database, and never twice when processes race.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashDatasetItems, parseDatasetFile } from "@/lib/datasets";
import { addSkillVersion, getDatasetItems, importDataset, listDatasets, listSkillVersions } from "@/lib/db";
import { DEMO_DATASET_NAME, DEMO_SKILL_NAME, demoDirectory, seedDemoIfEmpty } from "@/lib/db/demo";
import { createTestDb, type TestDatabase } from "../support/test-db";

const opened: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((test) => test.close()));
});

function freshDb(): TestDatabase {
  const test = createTestDb();
  opened.push(test);
  return test;
}

const demoFile = (...parts: string[]) => join(demoDirectory(), ...parts);

describe("seedDemoIfEmpty", () => {
  it("seeds the demo dataset and both skill versions into an empty database", async () => {
    const { db } = freshDb();
    expect(await seedDemoIfEmpty(db)).toEqual({ seeded: true });

    const datasets = await listDatasets(db);
    expect(datasets).toHaveLength(1);
    const [dataset] = datasets;
    const expectedItems = await parseDatasetFile(demoFile("searchqa-demo.jsonl"));
    expect(dataset).toMatchObject({ name: DEMO_DATASET_NAME, fileName: "searchqa-demo.jsonl", format: "jsonl", itemCount: 50 });
    expect(dataset?.hash).toBe(await hashDatasetItems(expectedItems));
    // The file's own sha256, what `sha256sum prisma/demo/searchqa-demo.jsonl` prints.
    expect(dataset?.fileSha256).toBe(createHash("sha256").update(readFileSync(demoFile("searchqa-demo.jsonl"))).digest("hex"));
    const items = await getDatasetItems(db, dataset!.id);
    expect(items.map((item) => item.id)).toEqual(expectedItems.map((item) => item.id));
    expect(items[0]?.metadata).toHaveProperty("category");

    const versions = await listSkillVersions(db);
    expect(versions.map(({ skillName, version, note }) => ({ skillName, version, note }))).toEqual([
      { skillName: DEMO_SKILL_NAME, version: 1, note: "starting skill" },
      { skillName: DEMO_SKILL_NAME, version: 2, note: "trained by the optimiser" },
    ]);
    const initial = await db.skillVersion.findFirstOrThrow({ where: { version: 1 } });
    const trained = await db.skillVersion.findFirstOrThrow({ where: { version: 2 } });
    expect(initial.content).toBe(readFileSync(demoFile("skills", "searchqa-initial.md"), "utf8"));
    expect(trained.content).toBe(readFileSync(demoFile("skills", "searchqa-trained.md"), "utf8"));
  });

  it("does nothing the second time", async () => {
    const { db } = freshDb();
    expect(await seedDemoIfEmpty(db)).toEqual({ seeded: true });
    expect(await seedDemoIfEmpty(db)).toEqual({ seeded: false });
    expect(await db.dataset.count()).toBe(1);
    expect(await db.datasetItem.count()).toBe(50);
    expect(await db.skillVersion.count()).toBe(2);
  });

  it("leaves a database with the user's skills alone", async () => {
    const { db } = freshDb();
    await addSkillVersion(db, { name: "mine", content: "# My skill\n" });
    expect(await seedDemoIfEmpty(db)).toEqual({ seeded: false });
    expect(await db.dataset.count()).toBe(0);
    expect(await db.skill.count()).toBe(1);
  });

  it("leaves a database with the user's datasets alone", async () => {
    const { db } = freshDb();
    const items = [{ id: "q1", question: "What?", context: "", answers: ["that"] }];
    await importDataset(db, { name: "mine", fileName: "mine.jsonl", format: "jsonl", hash: await hashDatasetItems(items), items });
    expect(await seedDemoIfEmpty(db)).toEqual({ seeded: false });
    expect(await db.dataset.count()).toBe(1);
    expect(await db.skill.count()).toBe(0);
  });

  it("seeds once when called twice at the same time in one process", async () => {
    const { db } = freshDb();
    const results = await Promise.all([seedDemoIfEmpty(db), seedDemoIfEmpty(db), seedDemoIfEmpty(db)]);
    expect(results.filter((result) => result.seeded)).toHaveLength(1);
    expect(await db.dataset.count()).toBe(1);
    expect(await db.skillVersion.count()).toBe(2);
  });

  it("seeds once when several processes start at the same time", async () => {
    const { db, dir, url } = freshDb();
    const script = join(dir, "seed-child.mjs");
    const lib = resolve("lib/db");
    writeFileSync(
      script,
      [
        `import { openDatabase } from ${JSON.stringify(join(lib, "client.ts"))};`,
        `import { seedDemoIfEmpty } from ${JSON.stringify(join(lib, "demo.ts"))};`,
        "const db = openDatabase(process.env.DATABASE_URL);",
        "await db.dataset.count();",
        'process.stdout.write("ready\\n");',
        // Wait for the parent's go, so every process reaches the seed at nearly the same moment.
        'await new Promise((resolve) => process.stdin.once("data", resolve));',
        'process.stdout.write(JSON.stringify(await seedDemoIfEmpty(db)) + "\\n");',
        "await db.$disconnect();",
        "process.exit(0);",
      ].join("\n"),
    );
    const children = Array.from({ length: 3 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", script], {
        env: { ...process.env, DATABASE_URL: url },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const ready = new Promise<void>((resolveReady, reject) => {
        const poll = setInterval(() => {
          if (stdout.includes("ready\n")) {
            clearInterval(poll);
            resolveReady();
          }
        }, 10);
        child.once("exit", (code) => {
          clearInterval(poll);
          reject(new Error(`seed child exited (${code}) before it was ready: ${stderr}`));
        });
      });
      const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveExit) =>
        child.once("exit", (code) => resolveExit({ code, stdout, stderr })),
      );
      return { child, ready, exited };
    });
    try {
      await Promise.all(children.map((entry) => entry.ready));
      for (const { child } of children) child.stdin.write("go\n");
      const outcomes = await Promise.all(children.map((entry) => entry.exited));
      for (const outcome of outcomes) expect(outcome, outcome.stderr).toMatchObject({ code: 0 });
      const results = outcomes.map((outcome) => JSON.parse(outcome.stdout.split("\n")[1] ?? "null") as { seeded: boolean });
      expect(results.filter((result) => result.seeded)).toHaveLength(1);
      expect(await db.dataset.count()).toBe(1);
      expect(await db.datasetItem.count()).toBe(50);
      expect(await db.skill.count()).toBe(1);
      expect(await db.skillVersion.count()).toBe(2);
    } finally {
      for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 60_000);
});
