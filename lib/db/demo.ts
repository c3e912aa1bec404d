/**
 * The demo a fresh install starts with: a small SearchQA-style dataset and the two fixture skills (the
 * starting skill and the one the optimiser trained), so a new user can start a run on the offline baseline
 * at once. Files live in prisma/demo/ and are read relative to the working directory (the project root).
 */

import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Prisma } from "../../generated/prisma/client";
import { hashDatasetItems, parseDatasetFile, sha256File } from "../datasets";
import type { DatasetItem } from "../datasets/types";
import type { Db } from "./client";
import { importDataset } from "./datasets";
import { engineOf, registerEngine } from "./engine";
import { markInsideTransaction } from "./sqlite-transaction";
import { addSkillVersion } from "./skills";

export const DEMO_DATASET_NAME = "SearchQA demo";
export const DEMO_DATASET_FILE = "searchqa-demo.jsonl";
export const DEMO_SKILL_NAME = "searchqa";

interface DemoContent {
  items: DatasetItem[];
  fileSha256: string;
  initialSkill: string;
  trainedSkill: string;
}

/** The demo folder; the comment keeps Next's file tracing from pulling in the whole project. */
export function demoDirectory(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "demo");
}

/**
 * Seeds the demo when the database has no datasets and no skills. Safe when several processes start at
 * once: the seed runs in one transaction that first takes the write lock (SQLite's, or PostgreSQL's transaction lock)
 * and then re-checks that the database is still empty, so a second seeder waits for the first and then finds its rows.
 */
export async function seedDemoIfEmpty(db: Db, options: { directory?: string } = {}): Promise<{ seeded: boolean }> {
  // Cheap check first: on every start but the first, this is all that runs.
  if (!(await isEmpty(db))) return { seeded: false };
  const demo = await loadDemo(options.directory ?? demoDirectory());
  try {
    return await db.$transaction(
      async (tx) => {
        // Every transaction holds the write lock from its start (write-lock-first.ts, postgres-client.ts), so a
        // concurrent seeder in another process waits here until we commit, then sees a non-empty database.
        if (!(await isEmpty(tx))) return { seeded: false };
        const inner = runInside(tx, db);
        await importDataset(inner, {
          name: DEMO_DATASET_NAME,
          fileName: DEMO_DATASET_FILE,
          format: "jsonl",
          hash: await hashDatasetItems(demo.items),
          fileSha256: demo.fileSha256,
          items: demo.items,
        });
        await addSkillVersion(inner, { name: DEMO_SKILL_NAME, content: demo.initialSkill, note: "starting skill" });
        await addSkillVersion(inner, { name: DEMO_SKILL_NAME, content: demo.trainedSkill, note: "trained by the optimiser" });
        return { seeded: true };
      },
      { maxWait: 20_000, timeout: 60_000 },
    );
  } catch (error) {
    // Lost a race we could not wait out (e.g. SQLITE_BUSY): fine if someone else's data is there now.
    if (!(await isEmpty(db))) return { seeded: false };
    throw error;
  }
}

/** What the home page's one-click demo run runs: the demo dataset and the latest uploaded version of the demo skill. */
export interface DemoRunInputs {
  datasetId: number;
  skillVersionId: number;
  skillVersion: number;
}

/** The demo's dataset and skill, if they are (still) there; null once either was removed or never seeded. */
export async function findDemoRunInputs(db: Db): Promise<DemoRunInputs | null> {
  const [dataset, version] = await Promise.all([
    db.dataset.findFirst({ where: { name: DEMO_DATASET_NAME, fileName: DEMO_DATASET_FILE }, orderBy: { id: "asc" }, select: { id: true } }),
    // A person's latest version (the trained one), not the demo optimisation's last candidate.
    db.skillVersion.findFirst({ where: { skill: { name: DEMO_SKILL_NAME }, originOptimizationId: null }, orderBy: { version: "desc" }, select: { id: true, version: true } }),
  ]);
  return dataset && version ? { datasetId: dataset.id, skillVersionId: version.id, skillVersion: version.version } : null;
}

async function isEmpty(db: Db | Prisma.TransactionClient): Promise<boolean> {
  const [datasets, skills] = await Promise.all([db.dataset.count(), db.skill.count()]);
  return datasets === 0 && skills === 0;
}

async function loadDemo(directory: string): Promise<DemoContent> {
  const [items, fileSha256, initialSkill, trainedSkill] = await Promise.all([
    parseDatasetFile(path.join(directory, DEMO_DATASET_FILE)),
    sha256File(path.join(directory, DEMO_DATASET_FILE)),
    readFile(path.join(directory, "skills", "searchqa-initial.md"), "utf8"),
    readFile(path.join(directory, "skills", "searchqa-trained.md"), "utf8"),
  ]);
  return { items, fileSha256, initialSkill, trainedSkill };
}

/**
 * The transaction client, seen as a Db whose `$transaction` runs its work in this same transaction, so
 * importDataset and addSkillVersion (which open their own) become parts of the seed's one transaction.
 */
function runInside(tx: Prisma.TransactionClient, root: Db): Db {
  const $transaction = async (work: unknown): Promise<unknown> => {
    if (typeof work === "function") return (work as (client: Prisma.TransactionClient) => Promise<unknown>)(tx);
    if (Array.isArray(work)) {
      const results: unknown[] = [];
      for (const operation of work) results.push(await operation);
      return results;
    }
    throw new TypeError("unsupported $transaction call inside the demo seed");
  };
  const inner = new Proxy(tx, {
    get: (target, key) => (key === "$transaction" ? $transaction : Reflect.get(target, key)),
  }) as unknown as Db;
  // The dataset's rows are written in bulk (bulk-write.ts): into this same transaction, on either engine.
  registerEngine(inner, engineOf(root));
  markInsideTransaction(inner, root);
  return inner;
}
