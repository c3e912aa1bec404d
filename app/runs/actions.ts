"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { actionFailure, type ActionFailure, type ActionResult } from "@/app/_lib/action-result";
import { guardedAction } from "@/app/_lib/guarded-action";
import { chosenIdSchema, RunIdSchema } from "@/app/_lib/ids";
import { clearResponseCache, getDb, queueRunForResume, retryFailedItems, requestCancel } from "@/lib/db";
import { removeKeptWorkspaces } from "@/lib/rollout/agent-workspaces";
import { wakeDashboardWorkers } from "@/lib/workers/dashboard-workers";
import { rerunWithSkillVersion } from "./_lib/rerun";
import { startRunFromForm, type StartRunFailure } from "./_lib/start-run-form";

// Server actions: each goes through guardedAction (the access check), validates with zod, makes one call into lib/,
// then revalidates or redirects. The run itself is executed by the worker in this server process (started at boot):
// actions only write to the database and wake it, so they return at once however long the run takes.

// StartRunFormSchema (in _lib/start-run-form.ts, beside the function tests call with a test database)
// validates the New run form: field types and required fields, then ranges and the backend.
export const startRunAction = guardedAction(async (_previous: ActionFailure | null, formData: FormData): Promise<StartRunFailure> => {
  const result = await startRunFromForm(getDb(), formData);
  if (!result.ok) return result;
  wakeDashboardWorkers();
  revalidatePath("/runs");
  redirect(`/runs/${result.data.runId}`);
});

// Cancel, resume and retry take only the run's id.
const RunIdFormSchema = z.object({ runId: RunIdSchema });

export const cancelRunAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = RunIdFormSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  try {
    // The executing process sees the request within ~2 s and aborts in-flight calls; finished results stay.
    await requestCancel(getDb(), input.data.runId);
  } catch (error) {
    return actionFailure(error);
  }
  return revalidated(input.data.runId, "Cancel requested; finished results are kept.");
});

export const resumeRunAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = RunIdFormSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  try {
    await queueRunForResume(getDb(), input.data.runId);
  } catch (error) {
    return actionFailure(error);
  }
  wakeDashboardWorkers();
  return revalidated(input.data.runId, "Queued to resume; finished items are kept.");
});

export const retryFailedItemsAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = RunIdFormSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  let removed: number;
  try {
    ({ removed } = await retryFailedItems(getDb(), input.data.runId));
  } catch (error) {
    return actionFailure(error);
  }
  wakeDashboardWorkers();
  return revalidated(input.data.runId, `Queued ${removed} failed item${removed === 1 ? "" : "s"} to run again.`);
});

const RunAgainSchema = z.object({ runId: RunIdSchema, skillVersionId: chosenIdSchema("Skill version") });

export const runAgainAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = RunAgainSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  let newRunId: number;
  try {
    newRunId = (await rerunWithSkillVersion(getDb(), input.data)).id;
  } catch (error) {
    return actionFailure(error);
  }
  wakeDashboardWorkers();
  revalidatePath("/runs");
  // Outside the try: redirect works by throwing.
  redirect(`/runs/${newRunId}`);
});

// Agent runs: deletes the workspaces their items kept, once the run has stopped.
export const removeKeptWorkspacesAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = RunIdFormSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  let removed: number;
  try {
    removed = await removeKeptWorkspaces(getDb(), input.data.runId);
  } catch (error) {
    return actionFailure(error);
  }
  return revalidated(input.data.runId, `Removed the workspaces of ${removed} item${removed === 1 ? "" : "s"}.`);
});

// The response cache (New run form): empties it. The form sends its confirm step's answer, so a stray post of the
// bare action (no confirmation) removes nothing.
const ClearResponseCacheSchema = z.object({ confirm: z.literal("clear", { error: "Confirm clearing the response cache first." }) });

export const clearResponseCacheAction = guardedAction(async (formData: FormData): Promise<ActionResult> => {
  const input = ClearResponseCacheSchema.safeParse(Object.fromEntries(formData));
  if (!input.success) return invalid(input.error);
  let removed: number;
  try {
    removed = await clearResponseCache(getDb());
  } catch (error) {
    return actionFailure(error);
  }
  revalidatePath("/runs/new");
  return { ok: true, message: `Cleared the response cache: ${removed} stored repl${removed === 1 ? "y" : "ies"} removed.` };
});

function invalid(error: z.ZodError): ActionFailure {
  return { ok: false, error: error.issues[0]?.message ?? "invalid input" };
}

function revalidated(runId: number, message: string): ActionResult {
  revalidatePath(`/runs/${runId}`);
  revalidatePath("/runs");
  return { ok: true, message };
}
