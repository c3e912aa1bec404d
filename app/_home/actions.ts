"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { findDemoRunInputs } from "@/lib/db/demo";
import { createRunFor } from "@/lib/rollout/create-run";
import { wakeDashboardWorkers } from "@/lib/workers/dashboard-workers";
import { RunSettingsSchema } from "@/lib/runs/run-config";
import type { ActionResult } from "../_lib/action-result";
import { guardedAction } from "../_lib/guarded-action";

/**
 * The home page's "Run the demo": the demo dataset with the latest demo skill version on the offline baseline, with
 * the engine's default settings, created as the New run form would (createRunFor), then its run page. No input: the
 * demo is looked up here, so a stale page cannot start anything else.
 */
export const startDemoRunAction = guardedAction(async (): Promise<ActionResult> => {
  const db = getDb();
  const demo = await findDemoRunInputs(db);
  // The demo was removed since the page was drawn: the form lets the user choose instead.
  if (!demo) redirect("/runs/new");
  const run = await createRunFor(db, {
    datasetId: demo.datasetId,
    skillVersionId: demo.skillVersionId,
    config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse({}) },
  });
  wakeDashboardWorkers();
  revalidatePath("/");
  revalidatePath("/runs");
  // Outside any try: redirect works by throwing.
  redirect(`/runs/${run.id}`);
});
