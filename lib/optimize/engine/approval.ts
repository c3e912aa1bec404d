/**
 * A person's decision on the candidate waiting for approval (manual mode), shared by `optimize approve|reject` and the
 * dashboard. An edited candidate becomes a new skill version (parent: the candidate) that the loop scores and gates
 * again. The optimisation is queued again; whoever executes it next (the CLI's --resume or the server's worker) goes on.
 * Dropping some of the step's ranked edits (the step page) is such an edited candidate: the kept edits applied again to
 * the skill the step edited, as the loop applied them.
 */
import {
  addSkillVersion, findPendingApproval, getOptimization, getSkillVersion, listOptimizationEdits, requeueOptimization, setOptimizationStepApproval, type Db,
} from "../../db";
import { applyPatchWithReport } from "../edits";

export type ApprovalAction = "approve" | "reject";

/** A decision that cannot be taken now (not waiting, nothing pending); nothing was changed. */
export class ApprovalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ApprovalError";
  }
}

export interface ApprovalOutcome {
  stepKey: string;
  decision: "approved" | "rejected" | "edited";
  /** The edited candidate's new version, when there is one. */
  editedVersionId: number | null;
}

export async function decideApproval(db: Db, id: number, action: ApprovalAction, editedContent?: string, options: { note?: string } = {}): Promise<ApprovalOutcome> {
  const row = await getOptimization(db, id);
  if (row.status !== "waiting_for_approval") throw new ApprovalError(`optimization ${id} is ${row.status.replaceAll("_", " ")}, not waiting for approval`);
  const pending = await findPendingApproval(db, id);
  if (!pending) throw new ApprovalError(`optimization ${id} has no candidate waiting`);
  let outcome: ApprovalOutcome;
  if (action === "reject") {
    if (editedContent !== undefined) throw new ApprovalError("an edited skill is only for approve");
    await setOptimizationStepApproval(db, id, pending.key, "rejected");
    outcome = { stepKey: pending.key, decision: "rejected", editedVersionId: null };
  } else if (editedContent !== undefined) {
    const initial = await getSkillVersion(db, row.initialVersionId);
    const parent = pending.candidateVersionId ?? row.currentVersionId ?? row.initialVersionId;
    const { version } = await addSkillVersion(db, {
      name: initial.skillName, content: editedContent, note: options.note ?? `edited candidate of optimization ${id} · ${pending.key}`,
      origin: { parentVersionId: parent, optimizationId: id, stepKey: `${pending.key}/edited` },
    });
    await setOptimizationStepApproval(db, id, pending.key, "edited", version.id);
    outcome = { stepKey: pending.key, decision: "edited", editedVersionId: version.id };
  } else {
    await setOptimizationStepApproval(db, id, pending.key, "approved");
    outcome = { stepKey: pending.key, decision: "approved", editedVersionId: null };
  }
  await requeueOptimization(db, id);
  return outcome;
}

/**
 * Approves the waiting candidate rebuilt from the ranked edits a person kept (by edit id; the others dropped): they are
 * applied, in rank order, to the skill the step edited, and the result goes through the edited-candidate path above
 * (a new version, scored on val and gated again by the loop). Refused unless at least one edit is kept and one dropped.
 */
export async function approveWithoutEdits(db: Db, id: number, keptEditIds: readonly number[]): Promise<ApprovalOutcome & { dropped: number[] }> {
  const row = await getOptimization(db, id);
  if (row.status !== "waiting_for_approval") throw new ApprovalError(`optimization ${id} is ${row.status.replaceAll("_", " ")}, not waiting for approval`);
  const pending = await findPendingApproval(db, id);
  if (!pending || pending.candidateVersionId === null) throw new ApprovalError(`optimization ${id} has no candidate waiting`);
  const edits = await listOptimizationEdits(db, pending.id);
  const unknown = keptEditIds.filter((editId) => !edits.some((edit) => edit.id === editId));
  if (unknown.length > 0) throw new ApprovalError(`edit ${unknown.join(", ")} is not an edit of ${pending.key}`);
  const kept = edits.filter((edit) => keptEditIds.includes(edit.id));
  const dropped = edits.filter((edit) => !keptEditIds.includes(edit.id)).map((edit) => edit.ordinal + 1);
  if (kept.length === 0) throw new ApprovalError("no edit is kept: reject the candidate instead");
  if (dropped.length === 0) throw new ApprovalError("every edit is kept: untick the edits to drop, or approve the candidate as it is");
  const candidate = await getSkillVersion(db, pending.candidateVersionId);
  const base = await getSkillVersion(db, candidate.parentVersionId ?? row.currentVersionId ?? row.initialVersionId);
  const patch = { edits: kept.map((edit) => ({ op: edit.op, ...(edit.target !== "" ? { target: edit.target } : {}), content: edit.content })) };
  const { skill } = applyPatchWithReport(base.content, patch);
  const outcome = await decideApproval(db, id, "approve", skill, { note: `candidate of optimization ${id} · ${pending.key} without edit${dropped.length === 1 ? "" : "s"} ${dropped.join(", ")}` });
  return { ...outcome, dropped };
}
