import Papa from "papaparse";
import { getItemConversations, itemTrialKey, iterateRunResultPages, iterateViewResultPages, type Db, type ItemView } from "../db";
import type { StoredItemResult } from "../runs/types";
import { joinedInChunks } from "./byte-stream";
import { pyJsonDumps } from "./python-json";
import { toSeedRow } from "./seed-rows";

export const EXPORT_FORMATS = ["csv", "jsonl", "seed"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Cells a spreadsheet would run as a formula get a leading apostrophe. Papa's built-in pattern
 * (/^[=+\-@\t\r].*$/) misses multi-line cells, because `.` stops at the first newline.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

const CSV_COLUMNS = [
  "id", "trial", "question", "gold_answers", "predicted_answer", "em", "f1", "sub_em", "status",
  "fail_reason", "latency_ms", "prompt_tokens", "completion_tokens", "turns",
] as const;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
  seed: "application/x-ndjson; charset=utf-8",
};

export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { csv: "csv", jsonl: "jsonl", seed: "jsonl" };

/**
 * The keys of each JSONL row, in order (stable: scripts and the importer rely on them). The run's system prompt is
 * the same for every item, so it is in the summary (`run.system_prompt`), not repeated in each row.
 */
export const JSONL_KEYS = [
  "id", "trial", "seq", "question", "gold_answers", "predicted_answer", "em", "f1", "sub_em", "hard", "soft", "status", "phase",
  "response", "fail_reason", "agent_ok", "n_turns", "latency_ms", "prompt_tokens", "completion_tokens", "attempts",
  "retries", "rate_limited", "started_at", "finished_at", "user_prompt", "conversation",
] as const;

export interface ExportOptions {
  /** Only the rows of this item-explorer view, in its order; without it, every result in order of completion. */
  view?: ItemView;
  pageSize?: number;
}

/** A run's results as text chunks in the chosen format, streamed page by page (order of completion, or the view's). */
export async function* exportRunResults(db: Db, runId: number, format: ExportFormat, options: ExportOptions = {}): AsyncGenerator<string> {
  if (format === "csv") yield `${Papa.unparse([[...CSV_COLUMNS]])}\r\n`;
  // Small pages keep each chunk (and the garbage it leaves) small while the client reads.
  const pageSize = options.pageSize ?? 200;
  const pages = options.view ? iterateViewResultPages(db, runId, options.view, pageSize) : iterateRunResultPages(db, runId, pageSize);
  for await (const page of pages) {
    // The seed's results.jsonl has one row per item: of a run with repeated trials it holds the first trial.
    if (format === "seed") yield* joinedInChunks(page.filter((row) => row.trial === 1).map((row) => `${pyJsonDumps(toSeedRow(row))}\n`));
    else if (format === "csv") yield `${Papa.unparse(page.map(toCsvRow), { header: false, escapeFormulae: FORMULA_START })}\r\n`;
    else {
      const conversations = await getItemConversations(db, runId, page);
      yield* joinedInChunks(
        page.map((row) => {
          const conversation = conversations.get(itemTrialKey(row.itemId, row.trial));
          return `${JSON.stringify({ ...toJsonRow(row), user_prompt: conversation?.userPrompt ?? "", conversation: conversation?.conversation ?? [] })}\n`;
        }),
      );
    }
  }
}

function toCsvRow(r: StoredItemResult): (string | number)[] {
  return [
    r.itemId, r.trial, r.question, JSON.stringify(r.goldAnswers), r.predictedAnswer, r.em, r.f1, r.subEm, r.status,
    r.failReason, Math.round(r.latencyMs), r.promptTokens, r.completionTokens, r.nTurns,
  ];
}

function toJsonRow(r: StoredItemResult) {
  return {
    id: r.itemId,
    trial: r.trial,
    seq: r.seq,
    question: r.question,
    gold_answers: r.goldAnswers,
    predicted_answer: r.predictedAnswer,
    em: r.em,
    f1: r.f1,
    sub_em: r.subEm,
    hard: r.hard,
    soft: r.soft,
    status: r.status,
    phase: r.phase,
    response: r.response,
    fail_reason: r.failReason,
    agent_ok: r.agentOk,
    n_turns: r.nTurns,
    latency_ms: r.latencyMs,
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    attempts: r.attempts,
    retries: r.retries,
    rate_limited: r.rateLimited,
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt.toISOString(),
  };
}
