"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "@/app/_components/link";
import { useActionState, useState } from "react";
import type { LiveStats } from "@/lib/runs/live-stats";
import { cancelRunAction, resumeRunAction, retryFailedItemsAction, runAgainAction } from "../actions";
import type { ActionResult } from "../../_lib/action-result";
import { runKeys } from "../_lib/query-keys";
import type { RunSummary } from "../../_lib/run-summary";
import styles from "./run.module.css";

export interface VersionChoice {
  id: number;
  label: string;
  skillName: string;
}

type Action = (formData: FormData) => Promise<ActionResult>;

const RESUMABLE = new Set(["interrupted", "cancelled", "failed"]);

/** One button posting the run id to a server action, then refetching the live data so the new status shows at once. */
function ActionButton({ runId, action, label, className, disabled, onResult }: {
  runId: number; action: Action; label: string; className?: string; disabled?: boolean; onResult: (result: ActionResult) => void;
}) {
  const queryClient = useQueryClient();
  const [, formAction, pending] = useActionState(async (_previous: ActionResult | null, formData: FormData) => {
    const result = await action(formData);
    onResult(result);
    await queryClient.invalidateQueries({ queryKey: runKeys.live(runId) });
    return result;
  }, null);
  return (
    <form action={formAction}>
      <input type="hidden" name="runId" value={runId} />
      <button type="submit" className={className} disabled={pending || disabled}>{label}</button>
    </form>
  );
}

/** Cancel, resume, retry failed items, copy settings, and run again with another skill version. */
export function RunActions({ run, stats, versions }: { run: RunSummary; stats: LiveStats; versions: VersionChoice[] }) {
  const [result, setResult] = useState<ActionResult | null>(null);
  const active = run.status === "queued" || run.status === "running";
  const failedItems = stats.errors + stats.timeouts;
  // An imported run names no model, so nothing here can execute it: only its settings can seed a new run.
  const executable = run.source !== "imported";
  const [rerunState, rerunAction, rerunPending] = useActionState(
    async (_previous: ActionResult | null, formData: FormData) => runAgainAction(formData),
    null,
  );
  const others = versions.filter((version) => version.id !== run.skillVersionId);
  // Default to another version of the same skill: the usual comparison.
  const preferred = others.filter((version) => version.skillName === run.skillName).at(-1) ?? others[0];

  return (
    <section className={`card ${styles.actions}`} aria-label="Run actions">
      <div className={styles.actionRow}>
        {active ? <ActionButton runId={run.id} action={cancelRunAction} label="Cancel run" className="danger" disabled={run.cancelRequested} onResult={setResult} /> : null}
        {RESUMABLE.has(run.status) ? <ActionButton runId={run.id} action={resumeRunAction} label="Resume run" className="primary" onResult={setResult} /> : null}
        {executable && !active && failedItems > 0 ? <ActionButton runId={run.id} action={retryFailedItemsAction} label="Retry failed items" onResult={setResult} /> : null}
        <Link className="button" href={`/runs/new?from=${run.id}`}>Copy settings to a new run</Link>
        {executable ? <form action={rerunAction} className={styles.rerun}>
          <input type="hidden" name="runId" value={run.id} />
          <label htmlFor="rerun-version" className={styles.inlineLabel}>Run again with</label>
          <select id="rerun-version" name="skillVersionId" defaultValue={preferred?.id ?? ""} disabled={others.length === 0}>
            {others.length === 0 ? <option value="">no other skill version</option> : null}
            {others.map((version) => <option key={version.id} value={version.id}>{version.label}</option>)}
          </select>
          <button type="submit" disabled={rerunPending || others.length === 0}>Run again</button>
        </form> : null}
      </div>
      <p className={styles.actionMessage} aria-live="polite">
        {rerunState && !rerunState.ok ? <span className={styles.actionError}>{rerunState.error}</span> : null}
        {result && !result.ok ? <span className={styles.actionError}>{result.error}</span> : null}
        {/* "Cancel requested", "Queued to resume"…: true while the run is still going, stale once it stopped. */}
        {result?.ok && active ? result.message : null}
      </p>
    </section>
  );
}
