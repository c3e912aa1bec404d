/**
 * The training loop's IO on the database: each rollout is an ordinary run (created once per purpose, resumed through the
 * run engine when interrupted), each optimizer call a stored row answered from the database on replay. Nothing the loop
 * learns lives only in memory, so a killed optimisation resumes by replaying the loop from the start.
 */
import {
  addSkillVersion, adjustOptimizerInFlight, findOptimizationRun, findOptimizerCall, getDataset, getDatasetItems, getItemConversations, itemTrialKey,
  getOptimizationStep, getRun, getSkillVersion,
  iterateRunResultPages, linkOptimizationRun, measureOptimizationSpend, saveOptimizationStep, saveOptimizerCall,
  setOptimizationStepApproval, updateOptimizationProgress, type Db,
} from "../../db";
import { pyJsonDumps } from "../../export/python-json";
import { FatalModelError, isAbortError, ModelCallError, type ChatModel } from "../../model";
import { createRunFor, executeRun } from "../../rollout";
import type { RunConfig } from "../../runs/run-config";
import type { ItemResult } from "../../runs/types";
import { extractJson } from "../extract-json";
import type { ApprovalDecision, LoopIO, OptimizerCallRequest, RolloutOutcome, RolloutRequest, SplitName, StageRecord } from "../loop/io";
import { LoopStopped } from "../loop/io";
import { reachedCap, type OptimizationCaps } from "./config";
import { Semaphore } from "./semaphore";

export interface DbLoopIOOptions {
  db: Db;
  optimizationId: number;
  skillName: string;
  datasets: Record<SplitName, number | null>;
  targetConfig: RunConfig;
  optimizer: ChatModel;
  optimizerConcurrency: number;
  caps: OptimizationCaps;
  /** activeMs of earlier executions, for the wall-time cap. */
  priorActiveMs: number;
  workerId: string;
  signal: AbortSignal;
  log(line: string): void;
  /** For tests: the target model to call instead of the one the run configuration names. */
  targetModel?: ChatModel;
}

export class DbLoopIO implements LoopIO {
  private readonly versions = new Map<string, number>();
  private readonly semaphore: Semaphore;
  private readonly started = performance.now();

  constructor(private readonly options: DbLoopIOOptions) {
    this.semaphore = new Semaphore(options.optimizerConcurrency);
  }

  log(line: string): void {
    this.options.log(line);
  }

  async skillVersion(skill: string, origin?: { parentSkill: string; stageKey: string }): Promise<number> {
    const known = this.versions.get(skill);
    if (known !== undefined) return known;
    const parentVersionId = origin ? await this.skillVersion(origin.parentSkill) : undefined;
    const { version } = await addSkillVersion(this.options.db, {
      name: this.options.skillName,
      content: skill,
      note: origin ? `optimization ${this.options.optimizationId} · ${origin.stageKey}` : null,
      origin: origin && parentVersionId !== undefined ? { parentVersionId, optimizationId: this.options.optimizationId, stepKey: origin.stageKey } : undefined,
    });
    this.versions.set(skill, version.id);
    return version.id;
  }

  async rollout(request: RolloutRequest): Promise<RolloutOutcome> {
    const { db, optimizationId, workerId, signal } = this.options;
    this.throwIfStopped();
    let runId = await findOptimizationRun(db, optimizationId, request.key);
    if (runId === null) {
      const datasetId = this.options.datasets[request.split];
      if (datasetId === null) throw new Error(`the optimisation has no ${request.split} split`);
      const skillVersionId = await this.skillVersion(request.skill, request.origin);
      // A run over the whole dataset needs no id list (a test split of thousands would bloat its configuration).
      const whole = !request.itemIds || request.itemIds.length === (await this.datasetSize(datasetId));
      const settings = { ...this.options.targetConfig.settings, ...(whole ? {} : { itemIds: [...request.itemIds!] }) };
      const run = await createRunFor(db, {
        datasetId, skillVersionId, config: { ...this.options.targetConfig, settings }, name: `optimization ${optimizationId} · ${request.key}`, leaseFor: workerId,
      });
      runId = run.id;
      await linkOptimizationRun(db, optimizationId, request.key, runId);
    }
    let run = await getRun(db, runId);
    if (run.status !== "completed") {
      run = await executeRun(db, runId, { workerId, signal, model: this.options.targetModel });
      this.throwIfStopped();
      if (run.status !== "completed") throw new Error(`rollout ${request.key} (run ${runId}) ${run.status}${run.error ? `: ${run.error}` : ""}`);
    }
    const rows = await loadRunRows(db, runId);
    const order = request.itemIds ?? (await getDatasetItems(db, run.datasetId)).map((item) => item.id);
    const ordered = order.map((id) => {
      const row = rows.get(id);
      if (!row) throw new Error(`run ${runId} has no result for item ${JSON.stringify(id)}`);
      return row;
    });
    return { runId, systemPrompt: run.systemPrompt, rows: ordered };
  }

  private readonly sizes = new Map<number, number>();
  private async datasetSize(datasetId: number): Promise<number> {
    if (!this.sizes.has(datasetId)) this.sizes.set(datasetId, (await getDataset(this.options.db, datasetId)).itemCount);
    return this.sizes.get(datasetId)!;
  }

  async callOptimizer(call: OptimizerCallRequest): Promise<string | undefined> {
    const { db, optimizationId } = this.options;
    const stored = await findOptimizerCall(db, optimizationId, call.key);
    if (stored) return stored.reply ?? undefined;
    this.throwIfStopped();
    const [system, user] = call.request.messages;
    const common = {
      key: call.key, stepKey: call.stageKey, stage: call.request.stage, minibatch: call.minibatch ?? null, mergeLevel: call.mergeLevel ?? null, itemIds: call.itemIds, inputKeys: call.inputKeys,
      system: system.content, user: user.content,
    };
    return this.semaphore.run(async () => {
      const started = performance.now();
      // The live gauge the optimisation's page shows ("calls in flight"), counted while the call is under way.
      await adjustOptimizerInFlight(db, optimizationId, 1);
      try {
        const response = await this.options.optimizer.complete({ messages: call.request.messages, maxCompletionTokens: call.request.maxCompletionTokens, signal: this.options.signal });
        let parsedJson: string | null = null;
        try {
          const parsed = extractJson(response.text);
          parsedJson = parsed === null ? null : pyJsonDumps(parsed);
        } catch {
          parsedJson = null; // a reply upstream's parser raises on; the loop treats it as upstream does
        }
        await saveOptimizerCall(db, optimizationId, {
          ...common, reply: response.text, parsedJson, promptTokens: response.promptTokens, completionTokens: response.completionTokens,
          latencyMs: performance.now() - started, attempts: response.attempts,
        });
        return response.text;
      } catch (error) {
        if (isAbortError(error) || this.options.signal.aborted) throw error;
        // A refused request (bad key, unknown model) fails the optimisation; it is not stored, so a resume tries again.
        if (error instanceof FatalModelError || !(error instanceof ModelCallError)) throw error;
        this.log(`[optimize] optimizer call ${call.key} failed after ${error.stats.attempts} attempts: ${error.message}`);
        await saveOptimizerCall(db, optimizationId, { ...common, reply: null, error: error.message, promptTokens: 0, completionTokens: 0, latencyMs: performance.now() - started, attempts: error.stats.attempts });
        return undefined;
      } finally {
        await adjustOptimizerInFlight(db, optimizationId, -1);
      }
    });
  }

  async saveStage(stage: StageRecord): Promise<void> {
    const { db, optimizationId } = this.options;
    const candidateVersionId = stage.candidateSkill !== undefined ? await this.skillVersion(stage.candidateSkill, stage.parentSkill !== undefined ? { parentSkill: stage.parentSkill, stageKey: stage.key } : undefined) : null;
    const [currentVersionId, bestVersionId] = [await this.skillVersion(stage.currentSkill), await this.skillVersion(stage.bestSkill)];
    const stateJson = JSON.stringify(stage.state);
    await saveOptimizationStep(db, optimizationId, {
      currentVersionId, bestVersionId, stateJson,
      key: stage.key, kind: stage.kind, epoch: stage.epoch, globalStep: stage.globalStep, batchItemIds: stage.batchItemIds,
      candidateVersionId, editBudget: stage.editBudget ?? null, action: stage.action ?? null,
      gateJson: stage.gate ? JSON.stringify(stage.gate) : null, recordJson: JSON.stringify(stage.record),
      edits: stage.edits?.map(({ proposedBy, ...edit }) => ({ ...edit, proposedByJson: JSON.stringify(proposedBy) })),
    });
    await updateOptimizationProgress(db, optimizationId, { currentVersionId, bestVersionId, stateJson, ...(await this.spend()) });
  }

  async approval(stageKey: string): Promise<ApprovalDecision> {
    const step = await getOptimizationStep(this.options.db, this.options.optimizationId, stageKey);
    switch (step?.approval) {
      case "pending": return { decision: "pending" };
      case "approved": return { decision: "approved" };
      case "rejected": return { decision: "rejected" };
      case "edited": return { decision: "edited", skill: (await getSkillVersion(this.options.db, step.approvalVersionId!)).content };
      default: return { decision: "none" };
    }
  }

  async requestApproval(stage: StageRecord): Promise<void> {
    await this.saveStage(stage);
    await setOptimizationStepApproval(this.options.db, this.options.optimizationId, stage.key, "pending");
  }

  async checkpoint(where: string): Promise<void> {
    this.throwIfStopped();
    const spend = await this.spend();
    await updateOptimizationProgress(this.options.db, this.options.optimizationId, spend);
    const cap = reachedCap(this.options.caps, { ...spend, wallS: (this.options.priorActiveMs + performance.now() - this.started) / 1000 });
    if (cap) throw new LoopStopped("cap", `${cap}, ${where}`);
  }

  private async spend() {
    return measureOptimizationSpend(this.options.db, this.options.optimizationId);
  }

  private throwIfStopped(): void {
    const { signal } = this.options;
    if (signal.aborted) throw new LoopStopped("cancelled", String(signal.reason ?? "cancelled"));
  }
}

/** A run's results with their conversations, by item id (an optimisation's runs have one trial per item). */
async function loadRunRows(db: Db, runId: number): Promise<Map<string, ItemResult>> {
  const rows = new Map<string, ItemResult>();
  for await (const page of iterateRunResultPages(db, runId)) {
    const conversations = await getItemConversations(db, runId, page);
    for (const row of page) {
      const conversation = conversations.get(itemTrialKey(row.itemId, row.trial));
      rows.set(row.itemId, { ...row, userPrompt: conversation?.userPrompt ?? "", conversation: conversation?.conversation ?? [] });
    }
  }
  return rows;
}
