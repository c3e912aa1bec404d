"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { actionFailure, type ActionFailure, type ActionResult } from "@/app/_lib/action-result";
import { guardedAction } from "@/app/_lib/guarded-action";
import { idSchema } from "@/app/_lib/ids";
import { getDb, getOptimization, requestOptimizationCancel, requeueOptimization } from "@/lib/db";
import { createOptimizationFor, validateOptimization } from "@/lib/optimize/engine";
import { ApprovalError, approveWithoutEdits, decideApproval } from "@/lib/optimize/engine/approval";
import { estimateOptimization } from "@/lib/optimize/engine/estimate";
import { wakeDashboardWorkers } from "@/lib/workers/dashboard-workers";
import { engineFailure, optimizationInputFromForm, type OptimizationFormFailure } from "./_lib/optimization-form";

// Server actions of the optimisation pages: each goes through guardedAction, validates with zod, calls lib/ and
// wakes the server's optimisation worker, which executes the optimisation (the action returns at once).

export type Estimate = Awaited<ReturnType<typeof estimateOptimization>>;

/** The New optimisation form's estimate: every field checked as for start; nothing stored but a requested split. */
export const estimateOptimizationAction = guardedAction(async (formData: FormData): Promise<ActionResult<{ estimate: Estimate; notices: string[] }> | OptimizationFormFailure> => {
  const db = getDb();
  const form = await optimizationInputFromForm(db, formData);
  if (!form.ok) return form;
  try {
    const valid = await validateOptimization(db, form.input);
    return { ok: true, data: { estimate: await estimateOptimization(db, form.input, valid), notices: form.notices } };
  } catch (error) {
    return engineFailure(error);
  }
});

export const startOptimizationAction = guardedAction(async (_previous: OptimizationFormFailure | null, formData: FormData): Promise<OptimizationFormFailure> => {
  const db = getDb();
  const form = await optimizationInputFromForm(db, formData);
  if (!form.ok) return form;
  let id: number;
  try {
    id = (await createOptimizationFor(db, form.input)).id;
  } catch (error) {
    return engineFailure(error);
  }
  wakeDashboardWorkers();
  revalidatePath("/optimize");
  redirect(`/optimize/${id}`);
});

const IdFormSchema = z.object({ optimizationId: idSchema("optimization id") });
const DecisionSchema = IdFormSchema.extend({
  decision: z.enum(["approve", "reject"], { error: "decision must be approve or reject" }),
  /** An edited candidate (approve only): stored as a new version, then scored and gated again by the loop. */
  // A textarea posts its lines with CRLF whatever they were (HTML's form encoding): back to the candidate's LF.
  skill: z.string().max(2_000_000, "The edited skill is too long").transform((text) => text.replace(/\r\n/g, "\n")).refine((text) => text.trim() !== "", "The edited skill is empty").optional(),
});

export const cancelOptimizationAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = IdFormSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  try {
    const row = await requestOptimizationCancel(getDb(), input.data.optimizationId);
    return revalidated(row.id, row.status === "cancelled" ? "Cancelled; finished stages are kept." : "Cancel requested; in-flight calls are aborted.");
  } catch (error) {
    return actionFailure(error);
  }
});

/** An interrupted or failed optimisation goes back in the queue; finished runs and calls are reused, not asked again. */
export const resumeOptimizationAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = IdFormSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  const id = input.data.optimizationId;
  try {
    const row = await getOptimization(getDb(), id);
    if (!["interrupted", "failed", "cancelled"].includes(row.status)) return { ok: false, error: `optimization ${id} is ${row.status.replaceAll("_", " ")}; only an interrupted, failed or cancelled one resumes` };
    if (row.source === "imported") return { ok: false, error: `optimization ${id} was imported; it cannot run here` };
    await requeueOptimization(getDb(), id);
  } catch (error) {
    return actionFailure(error);
  }
  wakeDashboardWorkers();
  return revalidated(id, "Queued to resume; finished stages are kept.");
});

export const decideCandidateAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = DecisionSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  const { optimizationId: id, decision, skill } = input.data;
  try {
    const outcome = await decideApproval(getDb(), id, decision, skill);
    wakeDashboardWorkers();
    revalidatePath(`/optimize/${id}/steps/${encodeURIComponent(outcome.stepKey)}`);
    const said = outcome.decision === "edited" ? "edited: the edited candidate is scored and gated again" : outcome.decision;
    return revalidated(id, `${outcome.stepKey} ${said}; the optimisation goes on.`);
  } catch (error) {
    if (error instanceof ApprovalError) return { ok: false, error: error.message };
    return actionFailure(error);
  }
});

const KeepEditsSchema = IdFormSchema.extend({ keep: z.array(idSchema("edit id")).max(1_000) });

/** Manual mode, the step page: approve the candidate rebuilt without the edits a person unticked; the loop gates it again. */
export const dropEditsAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = KeepEditsSchema.safeParse({ optimizationId: formData.get("optimizationId") ?? undefined, keep: formData.getAll("keep") });
  if (!input.success) return invalid(input.error);
  const { optimizationId: id, keep } = input.data;
  try {
    const outcome = await approveWithoutEdits(getDb(), id, keep);
    wakeDashboardWorkers();
    revalidatePath(`/optimize/${id}/steps/${encodeURIComponent(outcome.stepKey)}`);
    return revalidated(id, `${outcome.stepKey}: edit${outcome.dropped.length === 1 ? "" : "s"} ${outcome.dropped.join(", ")} dropped; the rebuilt candidate is scored and gated again.`);
  } catch (error) {
    if (error instanceof ApprovalError) return { ok: false, error: error.message };
    return actionFailure(error);
  }
});

function invalid(error: z.ZodError): ActionFailure {
  return { ok: false, error: error.issues[0]?.message ?? "invalid input" };
}

function revalidated(id: number, message: string): ActionResult {
  revalidatePath(`/optimize/${id}`);
  revalidatePath("/optimize");
  return { ok: true, message };
}
