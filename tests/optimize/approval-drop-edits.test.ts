// Manual approval, dropping edits: a person keeps some of the waiting candidate's ranked edits; the candidate is rebuilt
// from them (applied to the skill the step edited, as the loop applies them), stored as a version, and the loop scores
// it on val and gates it again, against the real engine, the scripted models and a real database.
import { expect, it } from "vitest";
import { findPendingApproval, getOptimization, getOptimizationStep, getSkillVersion, listOptimizationEdits, type OptimizationStepRecord } from "@/lib/db";
import { applyPatchWithReport } from "@/lib/optimize/edits";
import { createOptimizationFor, executeOptimization } from "@/lib/optimize/engine";
import { ApprovalError, approveWithoutEdits, decideApproval } from "@/lib/optimize/engine/approval";
import { withOptimizerWorld } from "../support/optimizer-world";

const world = withOptimizerWorld("skillboard-drop-edits-");

const patchOf = (edits: { op: string; target: string; content: string }[]) => ({ edits: edits.map((edit) => ({ op: edit.op, ...(edit.target ? { target: edit.target } : {}), content: edit.content })) });

it("rebuilds the waiting candidate from the kept edits, and the loop gates that version again", async () => {
  const { id } = await createOptimizationFor(
    world.db,
    await world.optimizationInput(
      { train: { num_epochs: 2, train_size: 0, batch_size: 8 }, gradient: { minibatch_size: 4, merge_batch_size: 2 }, optimizer: { learning_rate: 4, min_learning_rate: 2, slow_update_samples: 6 }, skillboard: { approval: "manual" } },
      { topics: 12, train: 24, val: 18, test: 12 },
    ),
  );

  // Run until a waiting candidate has two edits or more (approving the others as they are).
  let waiting: OptimizationStepRecord | null = null;
  for (let round = 0; round < 8 && !waiting; round++) {
    const { record } = await executeOptimization(world.db, id, { log: () => {} });
    if (record.status !== "waiting_for_approval") break;
    const pending = (await findPendingApproval(world.db, id))!;
    if ((await listOptimizationEdits(world.db, pending.id)).length >= 2) waiting = pending;
    else await decideApproval(world.db, id, "approve");
  }
  expect(waiting, "a candidate with two edits or more waited for approval").not.toBeNull();
  const edits = await listOptimizationEdits(world.db, waiting!.id);
  const candidate = await getSkillVersion(world.db, waiting!.candidateVersionId!);
  const base = await getSkillVersion(world.db, candidate.parentVersionId!);
  // The stored edits are the candidate: applied again to the skill the step edited, they give its text.
  expect(applyPatchWithReport(base.content, patchOf(edits)).skill).toBe(candidate.content);

  // Keeping none or all is not dropping edits; an edit of another step is refused. Nothing changes.
  await expect(approveWithoutEdits(world.db, id, [])).rejects.toThrow(ApprovalError);
  await expect(approveWithoutEdits(world.db, id, edits.map((edit) => edit.id))).rejects.toThrow(/every edit is kept/);
  await expect(approveWithoutEdits(world.db, id, [edits[0]!.id, 999_999])).rejects.toThrow(/edit 999999 is not an edit of/);
  expect((await getOptimizationStep(world.db, id, waiting!.key))!.approval).toBe("pending");

  const dropped = edits[0]!;
  const kept = edits.slice(1);
  const outcome = await approveWithoutEdits(world.db, id, kept.map((edit) => edit.id));
  expect(outcome).toMatchObject({ stepKey: waiting!.key, decision: "edited", dropped: [1] });
  const rebuilt = await getSkillVersion(world.db, outcome.editedVersionId!);
  expect(rebuilt.content).toBe(applyPatchWithReport(base.content, patchOf(kept)).skill);
  expect(rebuilt.content).not.toBe(candidate.content);
  if (dropped.op !== "delete") expect(rebuilt.content.includes(dropped.content)).toBe(base.content.includes(dropped.content));
  expect(rebuilt).toMatchObject({ parentVersionId: candidate.id, originOptimizationId: id, originStepKey: `${waiting!.key}/edited` });
  expect(rebuilt.note).toBe(`candidate of optimization ${id} · ${waiting!.key} without edit 1`);

  // The loop goes on: the rebuilt candidate is scored on val and gated again (the edited-candidate path).
  for (let round = 0; round < 8; round++) {
    const { record } = await executeOptimization(world.db, id, { log: () => {} });
    if (record.status !== "waiting_for_approval") break;
    await decideApproval(world.db, id, "reject");
  }
  expect((await getOptimization(world.db, id)).status).toBe("completed");
  const regated = (await getOptimizationStep(world.db, id, waiting!.key))!;
  expect(regated.candidateVersionId).toBe(rebuilt.id);
  const gate = JSON.parse(regated.gateJson!) as { approval: string; candidate_score: number; proposed: { candidate_score: number } };
  expect(gate.approval).toBe("edited");
  expect(typeof gate.candidate_score).toBe("number");
}, 180_000);
