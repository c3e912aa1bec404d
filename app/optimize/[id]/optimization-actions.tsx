"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useActionState, useState } from "react";
import type { ActionResult } from "@/app/_lib/action-result";
import { cancelOptimizationAction, decideCandidateAction, resumeOptimizationAction } from "../actions";
import { optimizationKeys } from "./use-optimization-live";
import styles from "./optimization.module.css";

type Action = (formData: FormData) => Promise<ActionResult>;

/** One button posting the optimisation id (and a decision) to an action, then refetching the live data. */
function ActionButton({ id, action, label, className, decision, onResult }: {
  id: number; action: Action; label: string; className?: string; decision?: "approve" | "reject"; onResult: (result: ActionResult) => void;
}) {
  const queryClient = useQueryClient();
  const [, formAction, pending] = useActionState(async (_previous: ActionResult | null, formData: FormData) => {
    const result = await action(formData);
    onResult(result);
    await queryClient.invalidateQueries({ queryKey: optimizationKeys.live(id) });
    return result;
  }, null);
  return (
    <form action={formAction}>
      <input type="hidden" name="optimizationId" value={id} />
      {decision ? <input type="hidden" name="decision" value={decision} /> : null}
      <button type="submit" className={className} disabled={pending}>{label}</button>
    </form>
  );
}

const ACTIVE = new Set(["queued", "running", "waiting_for_approval"]);
const RESUMABLE = new Set(["interrupted", "failed", "cancelled"]);

export function OptimizationActions({ id, status, source }: { id: number; status: string; source: string }) {
  const [result, setResult] = useState<ActionResult | null>(null);
  if (source === "imported") return null;
  return (
    <section className={`card ${styles.card}`} aria-label="Optimisation actions">
      <div className={styles.actionRow}>
        {ACTIVE.has(status) ? <ActionButton id={id} action={cancelOptimizationAction} label="Cancel optimisation" className="danger" onResult={setResult} /> : null}
        {RESUMABLE.has(status) ? <ActionButton id={id} action={resumeOptimizationAction} label="Resume optimisation" className="primary" onResult={setResult} /> : null}
        {!ACTIVE.has(status) && !RESUMABLE.has(status) ? <span className="hint">Finished: nothing to do.</span> : null}
      </div>
      <p className={styles.actionMessage} aria-live="polite">
        {result && !result.ok ? <span className={styles.actionError}>{result.error}</span> : result?.message}
      </p>
    </section>
  );
}

/** Manual approval: the candidate passed the gate and waits for a person. */
export function DecisionPanel({ id, stepKey }: { id: number; stepKey: string }) {
  const [result, setResult] = useState<ActionResult | null>(null);
  return (
    <section className={styles.waiting} aria-labelledby="waiting-heading">
      <h2 id="waiting-heading">Waiting for your decision</h2>
      <p>
        The candidate of <a href={`/optimize/${id}/steps/${encodeURIComponent(stepKey)}`}>{stepKey}</a> passed the gate. Approve it to go on with it, or
        reject it to keep the current skill. Either way the optimisation continues.
      </p>
      <div className={styles.actionRow}>
        <ActionButton id={id} action={decideCandidateAction} decision="approve" label="Approve candidate" className="primary" onResult={setResult} />
        <ActionButton id={id} action={decideCandidateAction} decision="reject" label="Reject candidate" className="danger" onResult={setResult} />
      </div>
      <p className={styles.actionMessage} aria-live="polite">
        {result && !result.ok ? <span className={styles.actionError}>{result.error}</span> : result?.message}
      </p>
    </section>
  );
}
