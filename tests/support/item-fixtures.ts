/**
 * Generated item results for the item explorer's tests and benchmark: SearchQA-like questions, responses of a few
 * hundred characters with an <answer> tag, scored by the real evaluator, with a realistic mix of correct answers,
 * near misses (sub-EM, partial F1), wrong answers, model errors (a few messages) and timeouts. Deterministic per seed.
 */
import { addSkillVersion, createRun, importDataset, newWorkerId, ResultWriter, type Db } from "@/lib/db";
import { emFailReason, evaluate, evaluationRecord } from "@/lib/eval";
import { buildUserPrompt } from "@/lib/prompts";
import { RunSettingsSchema } from "@/lib/runs";
import { itemStatusOf, type ItemResult } from "@/lib/runs/types";
import { seededRandom } from "@/lib/stats/random";

const NAMES = [
  "Abraham Lincoln", "Marie Curie", "Mount Everest", "Amazon River", "Great Wall", "Leonardo da Vinci", "Sahara", "Nile",
  "Mozart", "Tokyo", "Pacific Ocean", "Isaac Newton", "Jane Austen", "Mars", "Venice", "Beethoven", "Pluto", "Andes",
  "Shakespeare", "Napoleon", "Cleopatra", "Galileo", "Darwin", "Picasso", "Saturn", "Danube", "Everglades", "Kyoto",
];
const WORDS = (
  "the of river city king war song film novel capital island president battle empire mountain ocean poet painter composer " +
  "league team prize century dynasty kingdom republic bridge tower castle church famous first named called known largest"
).split(" ");
export const ERROR_MESSAGES = [
  "error: 500 Internal Server Error",
  "error: Connection error.",
  "error: 429 Rate limit reached for requests",
  "error: context_length_exceeded: the prompt is too long",
];
export const TIMEOUT_REASON = "task-timeout-660s";


export interface GeneratedItemsOptions {
  seed?: number;
  /** Id of item i; default `sq-000042`. */
  idOf?: (index: number) => string;
  /** Words of reasoning before the answer tag (a few hundred characters by default). */
  reasoningWords?: number;
}

export function makeItemResults(count: number, options: GeneratedItemsOptions = {}): ItemResult[] {
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const phrase = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const idOf = options.idOf ?? ((index: number) => `sq-${String(index).padStart(6, "0")}`);
  const start = Date.UTC(2026, 10, 30, 9, 0, 0);
  return Array.from({ length: count }, (_, index) => {
    const gold = pick(NAMES);
    // Some items accept a second form (the last name alone), as SearchQA's answer lists do.
    const golds = gold.includes(" ") && random() < 0.5 ? [gold, gold.split(" ").at(-1)!] : [gold];
    const question = `This ${phrase(4)} near ${pick(NAMES)} was ${phrase(3)} in ${1500 + Math.floor(random() * 500)} (clue ${index})`;
    const roll = random();
    const outcome = roll < 0.55 ? "correct" : roll < 0.63 ? "subem" : roll < 0.73 ? "partial" : roll < 0.9 ? "wrong" : roll < 0.96 ? "error" : "timeout";
    const predicted =
      outcome === "correct" ? (random() < 0.5 ? gold : `the ${gold.toLowerCase()}`)
      : outcome === "subem" ? `${gold} (${phrase(1)})`
      : outcome === "partial" ? `${gold.split(" ")[0]} ${pick(NAMES).split(" ").at(-1)} ${phrase(1)}`
      : pick(NAMES.filter((name) => name !== gold));
    const latencyMs = Math.round(300 + random() * random() * 20_000);
    const startedAt = new Date(start + index * 250);
    const finishedAt = new Date(startedAt.getTime() + latencyMs);
    const context = `[DOC] [TLE] ${gold} [PAR] ${phrase(20)} ${gold} ${phrase(10)}. [DOC] [TLE] ${pick(NAMES)} [PAR] ${phrase(25)}.`;
    const userPrompt = buildUserPrompt({ question, context });
    const base = {
      itemId: idOf(index), trial: 1, datasetItemId: index + 1, question, goldAnswers: golds, startedAt, finishedAt, latencyMs, userPrompt,
      hard: 0, soft: 0, retries: 0, rateLimited: 0,
    };
    if (outcome === "error" || outcome === "timeout") {
      const failReason = outcome === "error" ? (random() < 0.2 ? `error: unique failure ${index}` : pick(ERROR_MESSAGES)) : TIMEOUT_REASON;
      return {
        ...base, em: 0, f1: 0, subEm: 0, predictedAnswer: "", response: "", failReason, agentOk: false, nTurns: 0,
        status: outcome === "error" ? "error" : "timeout", phase: outcome === "timeout" ? "timeout" : null,
        promptTokens: 0, completionTokens: 0, attempts: outcome === "error" ? 6 : 1, conversation: [],
        // A timeout row is stored without its prompt (the seed's _timeout_result); a model error keeps it.
        userPrompt: outcome === "timeout" ? "" : userPrompt,
      } satisfies ItemResult;
    }
    const nTurns = random() < 0.8 ? 1 : 2;
    const response = `Let me read the passages. ${phrase(options.reasoningWords ?? 60)}. So the answer is clear.\n<answer>${predicted}</answer>`;
    const scores = evaluate(response, golds);
    const row = { phase: null, agentOk: true, em: scores.em };
    return {
      ...base,
      em: scores.em, f1: scores.f1, subEm: scores.subEm, hard: Math.trunc(scores.em), soft: scores.f1,
      predictedAnswer: scores.predictedAnswer, response,
      failReason: scores.em < 1 ? emFailReason(scores.predictedAnswer, golds) : "",
      agentOk: true, nTurns, status: itemStatusOf(row), phase: null,
      promptTokens: Math.round(userPrompt.length / 4), completionTokens: Math.round(response.length / 4), attempts: 1,
      conversation: [
        ...Array.from({ length: nTurns }, (_, turn) => ({ type: "message" as const, turn: turn + 1, content: response })),
        { role: "system" as const, content: evaluationRecord(question, golds, scores) },
      ],
    } satisfies ItemResult;
  });
}

/**
 * A finished run holding `results`, written through the real ResultWriter, as a rollout writes them (SQLite's search
 * index catches up at the first search). The dataset is a stub: results carry their own questions and answers.
 */
export async function writeGeneratedRun(
  db: Db,
  results: readonly ItemResult[],
  options: { onProgress?: (written: number) => void; datasetId?: number; trials?: number } = {},
): Promise<{ runId: number; datasetId: number }> {
  const datasetId =
    options.datasetId ??
    (await importDataset(db, {
      name: "generated", fileName: "generated.jsonl", format: "jsonl", hash: `generated-${Math.random()}`,
      items: [{ id: "stub", question: "stub?", context: "", answers: ["stub"] }],
    })).id;
  const { version } = await addSkillVersion(db, { name: `generated-${Math.random()}`, content: "Answer briefly." });
  // Leased to this process from its first moment, never "queued": an app server on the same database polls for
  // queued runs, and would otherwise try to execute this one while we fill it.
  const run = await createRun(db, {
    datasetId, skillVersionId: version.id, itemsTotal: results.length, model: "generated-model",
    systemPrompt: "You are an expert question answering agent.",
    config: { model: { backend: "openai", model: "generated-model" }, settings: RunSettingsSchema.parse({ trials: options.trials }) },
    leaseFor: newWorkerId(),
  });
  const writer = new ResultWriter(db, run.id);
  for (const [index, result] of results.entries()) {
    writer.push(result);
    if ((index + 1) % 2000 === 0) {
      await writer.flush();
      options.onProgress?.(index + 1);
    }
  }
  await writer.flush();
  await db.run.update({ where: { id: run.id }, data: { status: "completed", finishedAt: new Date() } });
  return { runId: run.id, datasetId };
}
