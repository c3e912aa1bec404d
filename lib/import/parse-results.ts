import { z } from "zod";
import { IssueList, type DatasetValidationError } from "../datasets/errors";
import { itemStatusOf, type ItemResult } from "../runs/types";
import { MAX_FIELD_CHARS, MAX_ID_CHARS } from "../datasets/limits";
import { describeOversizedRecord } from "../datasets/oversized-record";
import type { SplitLine } from "../datasets/line-splitter";
import { readLines, type LineSource } from "./read-lines";

/**
 * Reads a results file: the seed's results.jsonl (process_one rows, and the `_timeout_result` / `_error_result` rows
 * with a "phase") or Skillboard's own JSONL export (lib/export/run-export.ts, JSONL_KEYS), line by line; a file may
 * mix them. Every line is checked before anything is stored; problems are collected (capped) with line and field.
 */

/** A result ready to store, without the dataset row it will point to, and the line it came from. */
export type ImportedResult = Omit<ItemResult, "datasetItemId"> & { line: number };

export interface ParsedResults {
  /** One per item id and trial, the last row of each (as a resumed seed run leaves them), in file order of those rows. */
  results: ImportedResult[];
  /** Rows replaced by a later row with the same id. */
  duplicatesDropped: number;
  formats: { seed: number; skillboard: number };
}

// Text fields that become dataset items or table cells are held to the dataset limits (lib/datasets/limits.ts).
const Text = z.string().max(MAX_FIELD_CHARS, `must be at most ${MAX_FIELD_CHARS.toLocaleString("en-US")} characters`);
const Id = z.union([z.string().min(1, "must not be empty").max(MAX_ID_CHARS, `must be at most ${MAX_ID_CHARS} characters`), z.number()]).transform(String);
const Strings = z.array(Text);
const Score = z.number().min(0).max(1);

const SeedRow = z.object({
  id: Id, question: Text, em: Score, f1: Score, sub_em: Score, hard: z.number().int(), soft: z.number(),
  predicted_answer: Text, gold_answers: Strings, response: Text, fail_reason: Text, agent_ok: z.boolean(),
  n_turns: z.number().int().min(0),
});

const SeedBatchRow = z.object({
  id: Id, question: Text, hard: z.number().int(), soft: z.number(), predicted_answer: Text, response: Text,
  fail_reason: Text, agent_ok: z.boolean(), n_turns: z.number().int().min(0), gold_answer: Strings,
  phase: z.enum(["timeout", "error"]),
});

const Count = z.number().int().min(0);
const ConversationEntry = z.union([
  z.object({ type: z.literal("message"), turn: z.number().int(), content: z.string() }),
  z.object({ role: z.literal("system"), content: z.string() }),
]);

const SkillboardRow = z.object({
  id: Id, trial: z.number().int().min(1).max(100).default(1), seq: z.number().int().min(1), question: Text, gold_answers: Strings, predicted_answer: Text,
  em: Score, f1: Score, sub_em: Score, hard: z.number().int(), soft: z.number(),
  status: z.enum(["correct", "wrong", "error", "timeout"]), phase: z.enum(["timeout", "error"]).nullable(),
  response: Text, fail_reason: Text, agent_ok: z.boolean(), n_turns: Count, latency_ms: z.number().min(0),
  prompt_tokens: Count, completion_tokens: Count, attempts: Count, retries: Count, rate_limited: Count,
  started_at: z.iso.datetime(), finished_at: z.iso.datetime(), user_prompt: z.string(), conversation: z.array(ConversationEntry),
});

export async function parseResultsStream(source: LineSource, file: string, now: Date = new Date()): Promise<ParsedResults> {
  const issues = new IssueList();
  const byId = new Map<string, ImportedResult>();
  const formats = { seed: 0, skillboard: 0 };
  let rows = 0;
  const lines = readLines(source);
  for (;;) {
    let next: IteratorResult<SplitLine>;
    try {
      next = await lines.next();
    } catch (error) {
      // The decoder refuses bytes that are not UTF-8; other stream failures (a body over the limit) pass on.
      if (!(error instanceof TypeError)) throw error;
      issues.add({ message: "the file is not UTF-8 text" });
      break;
    }
    if (next.done) break;
    const { number: line, text, cut } = next.value;
    if (cut) {
      issues.add({ line, ...describeOversizedRecord(text) });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      issues.add({ line, message: `not valid JSON (${(error as Error).message})` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      issues.add({ line, message: "expected a JSON object" });
      continue;
    }
    const result = toResult(value as Record<string, unknown>, line, now, issues);
    if (!result) continue;
    rows += 1;
    formats[result.kind] += 1;
    // Keep the last row of an id (and trial), placed where that row is.
    const key = `${result.row.trial}\u0000${result.row.itemId}`;
    byId.delete(key);
    byId.set(key, result.row);
  }
  if (issues.count > 0) throw issues.toError(file);
  if (byId.size === 0) throw issuesError(file, "the file has no result rows");
  return { results: [...byId.values()], duplicatesDropped: rows - byId.size, formats };
}

function issuesError(file: string, message: string): DatasetValidationError {
  const list = new IssueList();
  list.add({ message });
  return list.toError(file);
}

function toResult(value: Record<string, unknown>, line: number, now: Date, issues: IssueList): { kind: "seed" | "skillboard"; row: ImportedResult } | null {
  const report = (error: z.ZodError) => {
    for (const issue of error.issues) issues.add({ line, field: issue.path.join(".") || undefined, message: issue.message });
    return null;
  };
  if ("status" in value && "seq" in value) {
    const parsed = SkillboardRow.safeParse(value);
    return parsed.success ? { kind: "skillboard", row: fromSkillboard(parsed.data, line) } : report(parsed.error);
  }
  const timing = { latencyMs: 0, promptTokens: 0, completionTokens: 0, attempts: 0, retries: 0, rateLimited: 0, startedAt: now, finishedAt: now };
  const commonOf = (data: z.infer<typeof SeedBatchRow> | z.infer<typeof SeedRow>) => ({
    line, itemId: data.id, trial: 1, question: data.question, hard: data.hard, soft: data.soft, predictedAnswer: data.predicted_answer,
    response: data.response, failReason: data.fail_reason, agentOk: data.agent_ok, nTurns: data.n_turns, userPrompt: "", conversation: [],
    ...timing,
  });
  if (typeof value.phase === "string") {
    const parsed = SeedBatchRow.safeParse(value);
    if (!parsed.success) return report(parsed.error);
    const data = parsed.data;
    const status = itemStatusOf({ phase: data.phase, agentOk: data.agent_ok, em: 0 });
    return { kind: "seed", row: { ...commonOf(data), goldAnswers: data.gold_answer, em: 0, f1: 0, subEm: 0, phase: data.phase, status } };
  }
  const parsed = SeedRow.safeParse(value);
  if (!parsed.success) return report(parsed.error);
  const data = parsed.data;
  const status = itemStatusOf({ phase: null, agentOk: data.agent_ok, em: data.em });
  return { kind: "seed", row: { ...commonOf(data), goldAnswers: data.gold_answers, em: data.em, f1: data.f1, subEm: data.sub_em, phase: null, status } };
}

function fromSkillboard(r: z.infer<typeof SkillboardRow>, line: number): ImportedResult {
  return {
    line, itemId: r.id, trial: r.trial, question: r.question, goldAnswers: r.gold_answers, em: r.em, f1: r.f1, subEm: r.sub_em, hard: r.hard, soft: r.soft,
    predictedAnswer: r.predicted_answer, response: r.response, failReason: r.fail_reason, agentOk: r.agent_ok, nTurns: r.n_turns,
    status: r.status, phase: r.phase, latencyMs: r.latency_ms, promptTokens: r.prompt_tokens, completionTokens: r.completion_tokens,
    attempts: r.attempts, retries: r.retries, rateLimited: r.rate_limited, startedAt: new Date(r.started_at), finishedAt: new Date(r.finished_at),
    userPrompt: r.user_prompt, conversation: r.conversation,
  };
}
