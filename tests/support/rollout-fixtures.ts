import { addSkillVersion, importDataset, iterateRunResultPages, type Db } from "@/lib/db";
import { createOpenAIChatModel } from "@/lib/model";
import { createRunFor } from "@/lib/rollout";
import { RunSettingsSchema, type RunSettings, type StoredItemResult } from "@/lib/runs";
import type { DatasetItem } from "@/lib/datasets/types";
import type { FaultPlan } from "./fake-openai-server";

/**
 * Items the fake server answers from the first [TLE] title: item i is answered "Answer <i>",
 * and its gold answer is that unless `wrong(i)` says the gold is something else.
 */
export function makeItems(count: number, wrong: (index: number) => boolean = () => false): DatasetItem[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `q${String(i).padStart(4, "0")}`,
    question: `Which title belongs to clue number ${i}?`,
    context: `[DOC] [TLE] Answer ${i} [PAR] Passage about clue ${i}. [DOC] [TLE] Other ${i} [PAR] Unrelated text.`,
    answers: wrong(i) ? [`Something else ${i}`] : [`Answer ${i}`],
  }));
}

export async function createStoredRun(
  db: Db,
  input: { items: DatasetItem[]; baseURL: string; settings?: Partial<RunSettings>; skill?: string; model?: string; leaseFor?: string },
) {
  const dataset = await importDataset(db, { name: "test", fileName: "test.jsonl", format: "jsonl", hash: `h${Math.random()}`, items: input.items });
  const { version } = await addSkillVersion(db, { name: `skill-${Math.random()}`, content: input.skill ?? "Answer with the passage title." });
  return createRunFor(db, {
    datasetId: dataset.id,
    skillVersionId: version.id,
    config: { model: { backend: "openai", model: input.model ?? "test-model", baseURL: input.baseURL }, settings: RunSettingsSchema.parse(input.settings ?? {}) },
    leaseFor: input.leaseFor,
  });
}

/** Every stored result of a run, in the run's order (seq). */
export async function storedResults(db: Db, runId: number): Promise<StoredItemResult[]> {
  const rows: StoredItemResult[] = [];
  for await (const page of iterateRunResultPages(db, runId)) rows.push(...page);
  return rows;
}

/** The real OpenAI client against the fake server, with millisecond backoff so retry tests stay fast. */
export function fastModel(baseURL: string, settings: { maxRetries?: number; callTimeoutMs?: number } = {}) {
  return createOpenAIChatModel({
    baseURL,
    model: "test-model",
    callTimeoutMs: settings.callTimeoutMs ?? 10_000,
    maxRetries: settings.maxRetries ?? 5,
    backoff: { baseMs: 5, capMs: 40 },
  });
}

export interface ItemGate {
  /** For the fake server's `faults` (alone, or in combineFaults after the plans that should still apply). */
  faults: FaultPlan;
  /** Answers the items numbered below `limit` from now on, releasing those held; `admit(0)` holds every new call. */
  admit(limit: number): void;
  /** How many calls the gate holds (a held call whose client gave up is counted until it is released). */
  held(): number;
}

/**
 * Holds the fake server's answers to makeItems() items numbered `admitted` and above: their calls stay in flight
 * until `admit()` lets them through. A run then stands still at a known point (e.g. exactly 8 items done and
 * `concurrency` calls waiting), so a test can watch or cancel it without racing its end.
 */
export function itemGate(admitted: number): ItemGate {
  let limit = admitted;
  let waiting: { index: number; release(): void }[] = [];
  return {
    faults: {
      pick(ctx) {
        const index = Number(/clue number (\d+)\?/.exec(ctx.question)?.[1]);
        if (!Number.isInteger(index) || index < limit) return undefined;
        return { kind: "hold", until: new Promise<void>((release) => waiting.push({ index, release })) };
      },
    },
    admit(next) {
      limit = next;
      for (const call of waiting) if (call.index < limit) call.release();
      waiting = waiting.filter((call) => call.index >= limit);
    },
    held: () => waiting.length,
  };
}
