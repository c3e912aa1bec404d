import { NotFoundError } from "@/lib/db";

/** What a run action (cancel, resume, retry, run again) tells the page; the page refetches the run for the rest. */
export type RunActionResult = { ok: true; message?: string } | { ok: false; error: string };

/** Domain errors become a message for the user; anything unexpected is still a message, never a stack trace. */
export function actionFailure(error: unknown): RunActionResult {
  if (error instanceof NotFoundError) return { ok: false, error: `${error.entity} ${error.id} not found` };
  return { ok: false, error: error instanceof Error ? error.message : String(error) };
}
