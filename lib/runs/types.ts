import type { DatasetItem } from "../datasets/types";

/** correct: EM = 1; wrong: answered but EM = 0; error: no agent response; timeout: the per-item task timeout fired. */
export type ItemStatus = "correct" | "wrong" | "error" | "timeout";

/** The seed's conversation.json entries: each model turn, then the evaluation record. */
export type ConversationEntry =
  | { type: "message"; turn: number; content: string }
  | { role: "system"; content: string };

/** An item of the run's dataset, with its row id in the database. */
export interface RolloutItem extends DatasetItem {
  datasetItemId: number;
  /** 1-based trial of a run with repeated trials (1 when absent). */
  trial?: number;
}

/** The trial an item of a run stands for. */
export function trialOf(item: Pick<RolloutItem, "trial">): number {
  return item.trial ?? 1;
}

/**
 * A key naming one trial of an item where files live per item (agent workspaces): the item id itself for trial 1,
 * so runs without repeated trials keep the folders they always had.
 */
export function trialItemKey(itemId: string, trial: number): string {
  return trial === 1 ? itemId : `${itemId}~trial-${trial}`;
}

/** The seed's result row (id, question, em, f1, sub_em, hard, soft, …) plus what the dashboard needs. */
export interface ItemResult {
  itemId: string;
  /** 1-based trial (each trial of an item is its own row). */
  trial: number;
  datasetItemId: number;
  question: string;
  goldAnswers: string[];
  em: number;
  f1: number;
  subEm: number;
  hard: number;
  soft: number;
  predictedAnswer: string;
  response: string;
  failReason: string;
  agentOk: boolean;
  nTurns: number;
  status: ItemStatus;
  /** null: a process_one row; "timeout"/"error": the seed's batch-level rows (_timeout_result/_error_result). */
  phase: "timeout" | "error" | null;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
  attempts: number;
  retries: number;
  rateLimited: number;
  startedAt: Date;
  finishedAt: Date;
  userPrompt: string;
  /**
   * The user prompt is its dataset item's context and question alone (isPlainUserPrompt): stored as this flag and
   * rebuilt from the item when read, not stored a second time.
   */
  userPromptFromItem?: boolean;
  conversation: ConversationEntry[];
  /** Agent (exec) runs only: how the agent process went, stored beside the row. */
  exec?: ItemExecRecord;
  /** The model's reply came from the response cache, first produced by this run (it cost no tokens). */
  cachedFromRunId?: number | null;
}

/** The last agent invocation of an item run through an agent command (backend "agent"). */
export interface ItemExecRecord {
  agent: string;
  /** The argument list run (placeholders replaced; the environment is never recorded). */
  command: string[];
  /** exited (any exit code), timeout, aborted (task timeout or cancel), stopped (it reported it could only retry) or spawn-error. */
  outcome: "exited" | "timeout" | "aborted" | "stopped" | "spawn-error";
  exitCode: number | null;
  exitSignal: string | null;
  durationMs: number;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  workspacePath: string;
  /** false once the workspace was deleted (a correct item, or removed from the run page). */
  workspaceKept: boolean;
  /** Agent invocations for the item (one per turn). */
  invocations: number;
  /** As stored: the machine that ran the item (its workspace is there) and the worker's --name; null before they were kept. */
  host?: string | null;
  workerName?: string | null;
}

/** A stored result: the row plus its 1-based order of completion. */
export interface StoredItemResult extends Omit<ItemResult, "userPrompt" | "conversation" | "exec"> {
  seq: number;
}

export type RunStatus = "queued" | "running" | "completed" | "failed" | "cancelled" | "interrupted";

export function itemStatusOf(row: Pick<ItemResult, "phase" | "agentOk" | "em">): ItemStatus {
  if (row.phase === "timeout") return "timeout";
  if (!row.agentOk) return "error";
  return row.em >= 1 ? "correct" : "wrong";
}
