/**
 * Executes (or resumes) a stored optimisation: takes its lease, replays the loop against the database (finished runs and
 * optimizer calls are reused, interrupted runs resumed), and records how it ended.
 */
import {
  claimOptimization, finishOptimization, getDatasetItems, getSkillVersion, heartbeatOptimization, newWorkerId,
  type Db, type OptimizationRecord, type OptimizationStatus,
} from "../../db";
import type { ChatModel } from "../../model";
import { RunConfigSchema } from "../../runs/run-config";
import { LoopPaused, LoopStopped } from "../loop/io";
import { train, type TrainOutcome } from "../loop/train";
import { parseOptimizeSettings } from "../settings";
import { OptimizationCapsSchema, OptimizerModelSchema } from "./config";
import { optimizerModelFor } from "./create";
import { DbLoopIO } from "./db-loop-io";

export interface ExecuteOptimizationOptions {
  workerId?: string;
  /**
   * Abort to stop: with reason "shutdown" it stays "running" with its lease released (the server resumes it when it starts
   * again); any other reason leaves it "interrupted" (resume it with optimize start --resume).
   */
  signal?: AbortSignal;
  log?(line: string): void;
  heartbeatMs?: number;
  /** For tests: models other than the configured ones. */
  targetModel?: ChatModel;
  optimizerModel?: ChatModel;
  claimableStatuses?: readonly OptimizationStatus[];
}

export interface OptimizationResult {
  record: OptimizationRecord;
  outcome?: TrainOutcome;
}

export async function executeOptimization(db: Db, id: number, options: ExecuteOptimizationOptions = {}): Promise<OptimizationResult> {
  const workerId = options.workerId ?? newWorkerId();
  const log = options.log ?? (() => undefined);
  const row = await claimOptimization(db, id, workerId, options.claimableStatuses);
  const started = performance.now();
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(options.signal?.reason === "shutdown" ? "shutdown" : "interrupted");
  options.signal?.addEventListener("abort", onInterrupt, { once: true });
  if (options.signal?.aborted) onInterrupt();
  const heartbeat = setInterval(() => {
    void heartbeatOptimization(db, id, workerId).then(({ cancelRequested, leaseLost }) => {
      if (cancelRequested) stop.abort("cancelled");
      else if (leaseLost) stop.abort("lease-lost");
    }, () => undefined);
  }, options.heartbeatMs ?? 1000);
  const elapsed = () => performance.now() - started;
  try {
    const settings = parseOptimizeSettings(JSON.parse(row.settingsJson));
    const targetConfig = RunConfigSchema.parse(JSON.parse(row.targetConfigJson));
    const optimizer = OptimizerModelSchema.parse(JSON.parse(row.optimizerJson));
    const initial = await getSkillVersion(db, row.initialVersionId);
    const ids = async (datasetId: number | null) => (datasetId === null ? [] : (await getDatasetItems(db, datasetId)).map((item) => item.id));
    const split = { train: await ids(row.trainDatasetId), val: await ids(row.valDatasetId), test: await ids(row.testDatasetId) };
    const io = new DbLoopIO({
      db, optimizationId: id, skillName: initial.skillName,
      datasets: { train: row.trainDatasetId, val: row.valDatasetId, test: row.testDatasetId },
      targetConfig, optimizer: options.optimizerModel ?? optimizerModelFor(optimizer), optimizerConcurrency: optimizer.concurrency,
      caps: OptimizationCapsSchema.parse(JSON.parse(row.capsJson)), priorActiveMs: row.activeMs, workerId, signal: stop.signal, log,
      targetModel: options.targetModel,
    });
    const outcome = await train({ io, settings, initialSkill: initial.content, split });
    clearInterval(heartbeat);
    const record = await finishOptimization(db, id, workerId, { status: "completed", activeMs: elapsed(), summaryJson: JSON.stringify(outcome.summary) });
    return { record, outcome };
  } catch (error) {
    clearInterval(heartbeat);
    if (error instanceof LoopPaused) {
      log(`[optimize] ${error.stageKey}: the candidate passed the gate and waits for approval (optimize approve ${id} | optimize reject ${id})`);
      return { record: await finishOptimization(db, id, workerId, { status: "waiting_for_approval", activeMs: elapsed() }) };
    }
    if (error instanceof LoopStopped && error.kind === "cap") {
      log(`[optimize] ${error.reason}`);
      return { record: await finishOptimization(db, id, workerId, { status: "completed", activeMs: elapsed(), stopReason: error.reason }) };
    }
    if (stop.signal.aborted) {
      if (stop.signal.reason === "lease-lost") throw new Error(`optimization ${id}: another process took it over`);
      const status = stop.signal.reason === "cancelled" ? "cancelled" : stop.signal.reason === "shutdown" ? "running" : "interrupted";
      return { record: await finishOptimization(db, id, workerId, { status, activeMs: elapsed(), stopReason: status === "cancelled" ? "cancelled by request" : null }) };
    }
    const message = error instanceof Error ? error.message : String(error);
    log(`[optimize] failed: ${message}`);
    return { record: await finishOptimization(db, id, workerId, { status: "failed", activeMs: elapsed(), error: message }) };
  } finally {
    options.signal?.removeEventListener("abort", onInterrupt);
  }
}
