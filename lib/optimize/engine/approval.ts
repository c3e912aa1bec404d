/**
 * A person's decision on the candidate waiting for approval (manual mode), shared by `optimize approve|reject` and the
 * dashboard. An edited candidate becomes a new skill version (parent: the candidate) that the loop scores and gates
 * again. The optimisation is queued again; whoever executes it next (the CLI's --resume or the server's worker) goes on.
 */
import { addSkillVersion, findPendingApproval, getOptimization, getSkillVersion, requeueOptimization, setOptimizationStepApproval, type Db } from "../../db";

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

export async function decideApproval(db: Db, id: number, action: ApprovalAction, editedContent?: string): Promise<ApprovalOutcome> {
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
      name: initial.skillName, content: editedContent, note: `edited candidate of optimization ${id} · ${pending.key}`,
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
