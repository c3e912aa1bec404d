import type { RunWithNames } from "@/lib/db";
import type { RunConfig } from "@/lib/runs/run-config";
import type { RunStatus } from "@/lib/runs/types";

/**
 * A run as the browser sees it: JSON-safe (dates as ISO text) and limited to what the pages show.
 * Leaves out the system prompt (large) and the lease holder (host and pid); the stored config holds no secret.
 */
export interface RunSummary {
  id: number;
  name: string | null;
  /** "executed" or "imported" (read from a results file). */
  source: string;
  status: RunStatus;
  error: string | null;
  datasetId: number;
  datasetName: string;
  skillId: number;
  skillName: string;
  skillVersionId: number;
  skillVersion: number;
  backend: string;
  model: string;
  itemsTotal: number;
  promptTokens: number;
  completionTokens: number;
  retries: number;
  rateLimited: number;
  /** A cancel was asked for and the executing process has not stopped yet. */
  cancelRequested: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  config: RunConfig;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toRunSummary(run: RunWithNames): RunSummary {
  return {
    id: run.id,
    name: run.name,
    source: run.source,
    status: run.status,
    error: run.error,
    datasetId: run.datasetId,
    datasetName: run.datasetName,
    skillId: run.skillId,
    skillName: run.skillName,
    skillVersionId: run.skillVersionId,
    skillVersion: run.skillVersion,
    backend: run.backend,
    model: run.model,
    itemsTotal: run.itemsTotal,
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    retries: run.retries,
    rateLimited: run.rateLimited,
    cancelRequested: run.cancelRequestedAt !== null && (run.status === "running" || run.status === "queued"),
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    config: run.config,
  };
}
