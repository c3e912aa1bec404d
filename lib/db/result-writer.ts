import { hostname } from "node:os";
import type { ItemExecRecord, ItemResult } from "../runs/types";
import { redactSecrets } from "../text/redact-secrets";
import type { Db } from "./client";
import { sqliteDateTime, type SqlValue } from "./sqlite-transaction";
import { storeResults } from "./stored-results";

export interface ResultWriterOptions {
  /** Flush when this many results are waiting… */
  maxBatch?: number;
  /** …or when the oldest has waited this long (bounds what a kill can lose). */
  maxDelayMs?: number;
}

/**
 * The defaults: a batch of up to 1,000 results, or whatever came in 0.5 s. The dashboard polls a run once a second, so
 * its live counters still move at every poll, and a kill loses at most 0.5 s of results (run again on resume).
 *
 * Why not smaller: every commit rewrites, in the WAL, each page it touched, and a result's entries in the explorer's
 * sort indexes (by question, gold answers, predicted answer, scores) land on pages all over those indexes. A commit of
 * 200 results touched most of their leaf pages, and so did the next one: a 20,000-item run (256 / 50 ms) made 69,000
 * page writes (strace: pwrite64) with batches of 200 / 100 ms, 25,800 with 1,000 / 500 ms. The writer's own CPU
 * (process.cpuUsage around each write) went from 1.35–1.50 s to 0.88–1.05 s; a 2,000-item run's (64 / 100 ms, 32
 * commits → 7) from 93–100 to 64–71 ms, its window unchanged (3.31–3.33 s, four pairs).
 */
const DEFAULT_MAX_BATCH = 1_000;
const DEFAULT_MAX_DELAY_MS = 500;

/**
 * Writes finished items in batches: result rows, their conversations and the run's counters in one
 * transaction, so the stored counters always agree with the stored rows and one fsync serves many items.
 * Flushes run one at a time, in order.
 *
 * Several writers may store results of one run at once (PostgreSQL's queue: worker processes on other machines), so
 * the order of completion (`seq`) and the running sums (cumEm…) are not kept here but read inside the write
 * transaction from the run's row, locked first (stored-results.ts): each batch continues what is stored, whoever
 * stored it, and the live curve stays a function of the items completed. An item that already has a result (a chunk
 * delivered again after its worker was presumed dead) is skipped, not stored twice, and not counted.
 */
export class ResultWriter {
  private buffer: ItemResult[] = [];
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  /** null: this writer does not own the run's gauges (the queue's workers sum theirs instead: run-queue-store.ts). */
  private gauges: RunGauges | null = { inFlight: 0, retryingNow: 0, rateLimitedNow: 0, concurrencyLimitNow: null };
  private readonly maxBatch: number;
  private readonly maxDelayMs: number;
  private readonly origin: ResultOrigin;
  /** Results stored, and results skipped because the item had one already. */
  readonly counts = { written: 0, skipped: 0 };

  constructor(
    private readonly db: Db,
    private readonly runId: number,
    options: ResultWriterOptions & { ownsGauges?: boolean; origin?: Partial<ResultOrigin> } = {},
  ) {
    this.origin = { host: options.origin?.host ?? hostname(), worker: options.origin?.worker ?? null };
    this.maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    this.maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    if (options.ownsGauges === false) this.gauges = null;
  }

  /** Queues a finished item. */
  push(result: ItemResult): void {
    if (this.failure) throw this.failure;
    // A prompt that is the dataset item's context and question alone is not stored (it is rebuilt from the item when
    // read), so the batch does not hold it (~6 KB a result) until it is written.
    this.buffer.push(result.userPromptFromItem && result.userPrompt !== "" ? { ...result, userPrompt: "" } : result);
    if (this.buffer.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.maxDelayMs);
  }

  setGauges(gauges: { inFlight: number; retrying: number; rateLimited: number; concurrencyLimit?: number | null }): void {
    if (!this.gauges) return;
    this.gauges = { inFlight: gauges.inFlight, retryingNow: gauges.retrying, rateLimitedNow: gauges.rateLimited, concurrencyLimitNow: gauges.concurrencyLimit ?? null };
  }

  /** Writes everything queued so far. Rejects if a write failed (nothing is dropped silently). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer;
    this.buffer = [];
    this.chain = this.chain.then(() => this.write(batch)).catch((error: unknown) => {
      this.failure ??= error;
    });
    return this.chain.then(() => {
      if (this.failure) throw this.failure;
    });
  }

  private async write(batch: ItemResult[]): Promise<void> {
    if (this.failure || (batch.length === 0 && !this.gauges)) return;
    const { runId, gauges } = this;
    const outcome = await storeResults(this.db, runId, batch, (start, fresh) => {
      const totals = { em: 0, f1: 0, subEm: 0, agentOk: 0, errors: 0, timeouts: 0, prompt: 0, completion: 0, latency: 0, retries: 0, rateLimited: 0 };
      // Each table's rows in one insert (multi-row on PostgreSQL); the explorer's search index catches up later (search-index.ts).
      const results: SqlValue[][] = [];
      const conversations: SqlValue[][] = [];
      const execs: SqlValue[][] = [];
      const cum = { ...start.sums };
      for (const [index, r] of fresh.entries()) {
        totals.em += r.em;
        totals.f1 += r.f1;
        totals.subEm += r.subEm;
        totals.agentOk += r.agentOk ? 1 : 0;
        totals.errors += r.status === "error" ? 1 : 0;
        totals.timeouts += r.status === "timeout" ? 1 : 0;
        totals.prompt += r.promptTokens;
        totals.completion += r.completionTokens;
        totals.latency += r.latencyMs;
        totals.retries += r.retries;
        totals.rateLimited += r.rateLimited;
        cum.em += r.em;
        cum.f1 += r.f1;
        cum.subEm += r.subEm;
        const row = toRow(runId, { ...r, seq: start.nDone + index + 1, cum: { ...cum } });
        results.push(RESULT_COLUMNS.map((column) => row[column]));
        // push() emptied the prompt of a result whose prompt is rebuilt from its item.
        conversations.push([runId, r.itemId, r.trial, r.userPrompt, r.userPromptFromItem ? 1 : 0, JSON.stringify(r.conversation)]);
        // Agent runs: the exec details of each item, in the same transaction as its row.
        if (r.exec) {
          const exec = toExecRow(runId, r.itemId, r.trial, r.exec, this.origin);
          execs.push(EXEC_COLUMNS.map((column) => exec[column]));
        }
      }
      const counters = [
        fresh.length, totals.em, totals.f1, totals.subEm, totals.agentOk, totals.errors, totals.timeouts, totals.prompt, totals.completion,
        totals.latency, totals.retries, totals.rateLimited,
      ];
      const update = gauges
        ? { sql: UPDATE_RUN_AND_GAUGES, values: [...counters, gauges.inFlight, gauges.retryingNow, gauges.rateLimitedNow, gauges.concurrencyLimitNow, sqliteDateTime(new Date()), runId] }
        : { sql: UPDATE_RUN, values: [...counters, runId] };
      return {
        inserts: [
          { table: "RunResult", columns: RESULT_COLUMNS, rows: results },
          { table: "RunItemConversation", columns: CONVERSATION_COLUMNS, rows: conversations },
          { table: "RunItemExec", columns: EXEC_COLUMNS, rows: execs },
        ],
        update,
      };
    });
    this.counts.written += outcome.written;
    this.counts.skipped += outcome.skipped;
  }
}

/** Where an agent item ran (its workspace is on that machine): recorded with its exec details. */
export interface ResultOrigin {
  host: string;
  /** The worker process's --name (null: not a named worker, e.g. a CLI run) */
  worker: string | null;
}

interface RunGauges {
  inFlight: number;
  retryingNow: number;
  rateLimitedNow: number;
  concurrencyLimitNow: number | null;
}

const RESULT_COLUMNS = [
  "runId", "itemId", "trial", "datasetItemId", "seq", "status", "phase", "question", "goldAnswersJson", "em", "f1", "subEm",
  "hard", "soft", "cumEm", "cumF1", "cumSubEm", "predictedAnswer", "response", "failReason", "agentOk", "nTurns", "latencyMs", "promptTokens",
  "completionTokens", "attempts", "retries", "rateLimited", "startedAt", "finishedAt", "cachedFromRunId",
] as const;
const CONVERSATION_COLUMNS = ["runId", "itemId", "trial", "userPrompt", "userPromptFromItem", "conversationJson"] as const;
const EXEC_COLUMNS = [
  "runId", "itemId", "trial", "agent", "commandJson", "outcome", "exitCode", "exitSignal", "durationMs", "stdout", "stderr", "stdoutBytes",
  "stderrBytes", "stdoutTruncated", "stderrTruncated", "workspacePath", "workspaceKept", "invocations", "host", "workerName",
] as const;
// A batch of results shares one transaction (one fsync) whatever its size (bulk-write.ts: prepared inserts on SQLite,
// multi-row inserts on PostgreSQL). Placeholders in the order of the values passed with it in write().
const COUNTERS = `"nDone" = "nDone" + ?, "emSum" = "emSum" + ?, "f1Sum" = "f1Sum" + ?, "subEmSum" = "subEmSum" + ?,
  "nAgentOk" = "nAgentOk" + ?, "nErrors" = "nErrors" + ?, "nTimeouts" = "nTimeouts" + ?,
  "promptTokens" = "promptTokens" + ?, "completionTokens" = "completionTokens" + ?,
  "latencyMsSum" = "latencyMsSum" + ?, "retries" = "retries" + ?, "rateLimited" = "rateLimited" + ?`;
const UPDATE_RUN = `UPDATE "Run" SET ${COUNTERS} WHERE "id" = ?`;
const UPDATE_RUN_AND_GAUGES = `UPDATE "Run" SET ${COUNTERS},
  "inFlight" = ?, "retryingNow" = ?, "rateLimitedNow" = ?, "concurrencyLimitNow" = ?, "heartbeatAt" = ?
  WHERE "id" = ?`;
/** A result as the RunResult table stores it; dates in the ISO-8601 text Prisma itself writes. */
export interface RunningSums {
  em: number;
  f1: number;
  subEm: number;
}

type SequencedResult = ItemResult & { seq: number; cum: RunningSums };

function toRow(runId: number, r: SequencedResult): Record<(typeof RESULT_COLUMNS)[number], SqlValue> {
  return {
    runId,
    itemId: r.itemId,
    trial: r.trial,
    datasetItemId: r.datasetItemId,
    seq: r.seq,
    status: r.status,
    phase: r.phase,
    question: r.question,
    goldAnswersJson: JSON.stringify(r.goldAnswers),
    em: r.em,
    f1: r.f1,
    subEm: r.subEm,
    hard: r.hard,
    soft: r.soft,
    cumEm: r.cum.em,
    cumF1: r.cum.f1,
    cumSubEm: r.cum.subEm,
    predictedAnswer: r.predictedAnswer,
    response: r.response,
    // Whatever produced the reason (a model error, an agent's stderr, an unexpected exception), no secret is stored.
    failReason: redactSecrets(r.failReason),
    agentOk: r.agentOk ? 1 : 0,
    nTurns: r.nTurns,
    latencyMs: r.latencyMs,
    promptTokens: r.promptTokens,
    completionTokens: r.completionTokens,
    attempts: r.attempts,
    retries: r.retries,
    rateLimited: r.rateLimited,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt.toISOString(),
    cachedFromRunId: r.cachedFromRunId ?? null,
  };
}

function toExecRow(runId: number, itemId: string, trial: number, e: ItemExecRecord, origin: ResultOrigin): Record<(typeof EXEC_COLUMNS)[number], SqlValue> {
  return {
    runId,
    itemId,
    trial,
    agent: e.agent,
    commandJson: JSON.stringify(e.command),
    outcome: e.outcome,
    exitCode: e.exitCode,
    exitSignal: e.exitSignal,
    durationMs: e.durationMs,
    stdout: e.stdout,
    stderr: e.stderr,
    stdoutBytes: e.stdoutBytes,
    stderrBytes: e.stderrBytes,
    stdoutTruncated: e.stdoutTruncated ? 1 : 0,
    stderrTruncated: e.stderrTruncated ? 1 : 0,
    workspacePath: e.workspacePath,
    workspaceKept: e.workspaceKept ? 1 : 0,
    invocations: e.invocations,
    host: origin.host,
    workerName: origin.worker,
  };
}
