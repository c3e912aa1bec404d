import type { OptimizationEdit, OptimizationStep, OptimizerCall } from "../../generated/prisma/client";
import type { Db } from "./client";
import { redactSecrets } from "../text/redact-secrets";

/**
 * What an optimisation did, stage by stage: its stored optimizer calls (reused on resume), the runs it made by
 * purpose, its stage records and their edits. Keys are the loop's (lib/optimize/loop/keys.ts).
 */

export type OptimizerCallRecord = OptimizerCall;
export type OptimizationStepRecord = OptimizationStep;
export type OptimizationEditRecord = OptimizationEdit;

export async function findOptimizerCall(db: Db, optimizationId: number, key: string): Promise<OptimizerCallRecord | null> {
  return db.optimizerCall.findUnique({ where: { optimizationId_key: { optimizationId, key } } });
}

export interface SaveOptimizerCall {
  key: string;
  stepKey: string;
  stage: string;
  minibatch?: number | null;
  mergeLevel?: number | null;
  itemIds?: readonly string[];
  /** The calls whose results this one took in (a merge's patches, the ranking's merged patch). */
  inputKeys?: readonly string[];
  system: string;
  user: string;
  reply: string | null;
  parsedJson?: string | null;
  error?: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  attempts: number;
}

/** Stores a finished call. Written once: a second writer of the same key (a replay) keeps the first. */
export async function saveOptimizerCall(db: Db, optimizationId: number, call: SaveOptimizerCall): Promise<void> {
  const { itemIds, inputKeys, error, ...rest } = call;
  const data = { ...rest, optimizationId, itemIdsJson: JSON.stringify(itemIds ?? []), inputKeysJson: JSON.stringify(inputKeys ?? []), error: error ? redactSecrets(error) : null };
  await db.optimizerCall.upsert({ where: { optimizationId_key: { optimizationId, key: call.key } }, create: data, update: {} });
}

export async function listOptimizerCalls(db: Db, optimizationId: number, stepKey?: string): Promise<OptimizerCallRecord[]> {
  return db.optimizerCall.findMany({ where: { optimizationId, ...(stepKey ? { stepKey } : {}) }, orderBy: { id: "asc" } });
}

export async function findOptimizationRun(db: Db, optimizationId: number, key: string): Promise<number | null> {
  const link = await db.optimizationRun.findUnique({ where: { optimizationId_key: { optimizationId, key } } });
  return link?.runId ?? null;
}

export async function linkOptimizationRun(db: Db, optimizationId: number, key: string, runId: number): Promise<void> {
  await db.optimizationRun.upsert({ where: { optimizationId_key: { optimizationId, key } }, create: { optimizationId, key, runId }, update: { runId } });
}

export async function listOptimizationRuns(db: Db, optimizationId: number): Promise<{ key: string; runId: number }[]> {
  return db.optimizationRun.findMany({ where: { optimizationId }, select: { key: true, runId: true }, orderBy: { runId: "asc" } });
}

export interface SaveOptimizationStep {
  key: string;
  kind: string;
  epoch: number;
  globalStep: number;
  batchItemIds?: readonly (readonly string[])[];
  candidateVersionId?: number | null;
  currentVersionId?: number | null;
  bestVersionId?: number | null;
  stateJson?: string;
  editBudget?: number | null;
  action?: string | null;
  gateJson?: string | null;
  recordJson: string;
  edits?: readonly Omit<OptimizationEdit, "id" | "stepId">[];
}

/** Writes a stage's record (and replaces its edits) in one transaction; approval fields are left alone. */
export async function saveOptimizationStep(db: Db, optimizationId: number, step: SaveOptimizationStep): Promise<OptimizationStepRecord> {
  const { edits, batchItemIds, ...fields } = step;
  const data = { ...fields, batchItemIdsJson: JSON.stringify(batchItemIds ?? []) };
  return db.$transaction(async (tx) => {
    // Stages are numbered in the order first written; a replayed stage keeps its number.
    const ordinal = await tx.optimizationStep.count({ where: { optimizationId } });
    const row = await tx.optimizationStep.upsert({
      where: { optimizationId_key: { optimizationId, key: step.key } },
      create: { ...data, ordinal, optimizationId },
      update: data,
    });
    if (edits) {
      await tx.optimizationEdit.deleteMany({ where: { stepId: row.id } });
      if (edits.length > 0) await tx.optimizationEdit.createMany({ data: edits.map((edit) => ({ ...edit, stepId: row.id })) });
    }
    return row;
  });
}

export async function getOptimizationStep(db: Db, optimizationId: number, key: string): Promise<OptimizationStepRecord | null> {
  return db.optimizationStep.findUnique({ where: { optimizationId_key: { optimizationId, key } } });
}

export async function listOptimizationSteps(db: Db, optimizationId: number): Promise<OptimizationStepRecord[]> {
  return db.optimizationStep.findMany({ where: { optimizationId }, orderBy: { ordinal: "asc" } });
}

export async function listOptimizationEdits(db: Db, stepId: number): Promise<OptimizationEditRecord[]> {
  return db.optimizationEdit.findMany({ where: { stepId }, orderBy: { ordinal: "asc" } });
}

/** Every edit of an optimisation's stages, by stage id then rank (what an export writes). */
export async function listOptimizationEditsOf(db: Db, optimizationId: number): Promise<OptimizationEditRecord[]> {
  return db.optimizationEdit.findMany({ where: { step: { optimizationId } }, orderBy: [{ stepId: "asc" }, { ordinal: "asc" }] });
}

/** Records a person's decision on a candidate waiting for approval. */
export async function setOptimizationStepApproval(
  db: Db,
  optimizationId: number,
  key: string,
  approval: "pending" | "approved" | "rejected" | "edited",
  approvalVersionId: number | null = null,
): Promise<void> {
  await db.optimizationStep.update({ where: { optimizationId_key: { optimizationId, key } }, data: { approval, approvalVersionId } });
}

/** The stage waiting for a person's decision, if any. */
export async function findPendingApproval(db: Db, optimizationId: number): Promise<OptimizationStepRecord | null> {
  return db.optimizationStep.findFirst({ where: { optimizationId, approval: "pending" }, orderBy: { ordinal: "desc" } });
}
