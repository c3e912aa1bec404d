"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isRequestAuthorized } from "@/lib/auth/request-auth";
import { getDb } from "@/lib/db";
import { findDemoRunInputs } from "@/lib/db/demo";
import { createRunFor } from "@/lib/rollout/create-run";
import { wakeRunWorker } from "@/lib/rollout/process-worker";
import { RunSettingsSchema } from "@/lib/rollout/run-config";

/**
 * The home page's "Run the demo": the demo dataset with the latest demo skill version on the offline baseline, with
 * the engine's default settings, created as the New run form would (createRunFor), then its run page. No input: the
 * demo is looked up here, so a stale page cannot start anything else.
 */
export async function startDemoRunAction(): Promise<void> {
  // The proxy already checks; an action is a public POST endpoint, so it checks for itself too.
  if (!isRequestAuthorized(await headers())) redirect("/signin");
  const db = getDb();
  const demo = await findDemoRunInputs(db);
  // The demo was removed since the page was drawn: the form lets the user choose instead.
  if (!demo) redirect("/runs/new");
  const run = await createRunFor(db, {
    datasetId: demo.datasetId,
    skillVersionId: demo.skillVersionId,
    config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse({}) },
  });
  wakeRunWorker();
  revalidatePath("/");
  revalidatePath("/runs");
  // Outside any try: redirect works by throwing.
  redirect(`/runs/${run.id}`);
}
