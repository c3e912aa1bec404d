import type { ItemExecRecord, ItemResult } from "../runs/types";
import { redactSecrets } from "../text/redact-secrets";
import type { Db } from "./client";
import { bulkTransaction } from "./bulk-write";
import { sqliteDateTime, type SqlValue } from "./sqlite-transaction";

export interface ResultWriterOptions {
  /** Flush when this many results are waiting… */
  maxBatch?: number;
  /** …or when the oldest has waited this long (bounds what a kill can lose). */
  maxDelayMs?: number;
}

/**
 * Writes finished items in batches: result rows, their conversations and the run's counters in one
 * transaction, so the stored counters always agree with the stored rows and one fsync serves many items.
 * Flushes run one at a time, in order.
 */
export class ResultWriter {
  private buffer: SequencedResult[] = [];
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private nextSeq: number;
  private sums: RunningSums;
  private gauges: { inFlight: number; retryingNow: number; rateLimitedNow: number; concurrencyLimitNow: number | null } = { inFlight: 0, retryingNow: 0, rateLimitedNow: 0, concurrencyLimitNow: null };
  private readonly maxBatch: number;
  private readonly maxDelayMs: number;

  /** `start`: the run's highest stored seq and its stored sums, so new rows continue both. */
  constructor(
    private readonly db: Db,
    private readonly runId: number,
    start: { lastSeq: number; sums: RunningSums },
    options: ResultWriterOptions = {},
  ) {
    this.nextSeq = start.lastSeq + 1;
    this.sums = { ...start.sums };
    this.maxBatch = options.maxBatch ?? 200;
    this.maxDelayMs = options.maxDelayMs ?? 100;
  }

  /** Queues a finished item; returns its order of completion. */
  push(result: ItemResult): number {
    if (this.failure) throw this.failure;
    const seq = this.nextSeq++;
    this.sums = { em: this.sums.em + result.em, f1: this.sums.f1 + result.f1, subEm: this.sums.subEm + result.subEm };
    this.buffer.push({ ...result, seq, cum: this.sums });
    if (this.buffer.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.maxDelayMs);
    return seq;
  }

  setGauges(gauges: { inFlight: number; retrying: number; rateLimited: number; concurrencyLimit?: number | null }): void {
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

  private async write(batch: SequencedResult[]): Promise<void> {
    if (this.failure) return;
    const totals = { em: 0, f1: 0, subEm: 0, agentOk: 0, errors: 0, timeouts: 0, prompt: 0, completion: 0, latency: 0, retries: 0, rateLimited: 0 };
    for (const r of batch) {
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
    }
    const { runId, gauges } = this;
    // Each table's rows in one insert (multi-row on PostgreSQL); the explorer's search index follows the rows by itself.
    const results: SqlValue[][] = [];
    const conversations: SqlValue[][] = [];
    const execs: SqlValue[][] = [];
    for (const r of batch) {
      const row = toRow(runId, r);
      results.push(RESULT_COLUMNS.map((column) => row[column]));
      conversations.push([runId, r.itemId, r.trial, r.userPrompt, JSON.stringify(r.conversation)]);
      // Agent runs: the exec details of each item, in the same transaction as its row.
      if (r.exec) {
        const exec = toExecRow(runId, r.itemId, r.trial, r.exec);
        execs.push(EXEC_COLUMNS.map((column) => exec[column]));
      }
    }
    await bulkTransaction(this.db, (write) => {
      write.insert("RunResult", RESULT_COLUMNS, results);
      write.insert("RunItemConversation", CONVERSATION_COLUMNS, conversations);
      if (execs.length > 0) write.insert("RunItemExec", EXEC_COLUMNS, execs);
      write.run(UPDATE_RUN, [
        batch.length, totals.em, totals.f1, totals.subEm, totals.agentOk, totals.errors, totals.timeouts, totals.prompt, totals.completion,
        totals.latency, totals.retries, totals.rateLimited, gauges.inFlight, gauges.retryingNow, gauges.rateLimitedNow,
        gauges.concurrencyLimitNow, sqliteDateTime(new Date()), runId,
      ]);
    });
  }
}

const RESULT_COLUMNS = [
  "runId", "itemId", "trial", "datasetItemId", "seq", "status", "phase", "question", "goldAnswersJson", "em", "f1", "subEm",
  "hard", "soft", "cumEm", "cumF1", "cumSubEm", "predictedAnswer", "response", "failReason", "agentOk", "nTurns", "latencyMs", "promptTokens",
  "completionTokens", "attempts", "retries", "rateLimited", "startedAt", "finishedAt", "cachedFromRunId",
] as const;
const CONVERSATION_COLUMNS = ["runId", "itemId", "trial", "userPrompt", "conversationJson"] as const;
const EXEC_COLUMNS = [
  "runId", "itemId", "trial", "agent", "commandJson", "outcome", "exitCode", "exitSignal", "durationMs", "stdout", "stderr", "stdoutBytes",
  "stderrBytes", "stdoutTruncated", "stderrTruncated", "workspacePath", "workspaceKept", "invocations",
] as const;
// A batch of results shares one transaction (one fsync) whatever its size (bulk-write.ts: prepared inserts on SQLite,
// multi-row inserts on PostgreSQL). Placeholders in the order of the values passed with it in write().
const UPDATE_RUN = `UPDATE "Run" SET
  "nDone" = "nDone" + ?, "emSum" = "emSum" + ?, "f1Sum" = "f1Sum" + ?, "subEmSum" = "subEmSum" + ?,
  "nAgentOk" = "nAgentOk" + ?, "nErrors" = "nErrors" + ?, "nTimeouts" = "nTimeouts" + ?,
  "promptTokens" = "promptTokens" + ?, "completionTokens" = "completionTokens" + ?,
  "latencyMsSum" = "latencyMsSum" + ?, "retries" = "retries" + ?, "rateLimited" = "rateLimited" + ?,
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

function toExecRow(runId: number, itemId: string, trial: number, e: ItemExecRecord): Record<(typeof EXEC_COLUMNS)[number], SqlValue> {
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
  };
}
