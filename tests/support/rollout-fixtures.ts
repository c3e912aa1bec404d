import { addSkillVersion, importDataset, type Db } from "@/lib/db";
import { createOpenAIChatModel } from "@/lib/model";
import { createRunFor } from "@/lib/rollout";
import { RunSettingsSchema, type RunSettings } from "@/lib/runs";
import type { DatasetItem } from "@/lib/datasets/types";

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
