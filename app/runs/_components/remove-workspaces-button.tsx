"use client";

import { useActionState } from "react";
import { removeKeptWorkspacesAction } from "../actions";
import type { ActionResult } from "../../_lib/action-result";
import styles from "./agent.module.css";

/** Deletes the run's kept agent workspaces (the exec details stored with each item stay). */
export function RemoveWorkspacesButton({ runId, disabled }: { runId: number; disabled?: boolean }) {
  const [state, formAction, pending] = useActionState(
    async (_previous: ActionResult | null, formData: FormData) => removeKeptWorkspacesAction(formData),
    null,
  );
  return (
    <form action={formAction}>
      <input type="hidden" name="runId" value={runId} />
      <button type="submit" className="danger" disabled={pending || disabled}>Remove kept workspaces</button>
      <span className={`hint ${styles.message}`} aria-live="polite">
        {state ? (state.ok ? state.message : <span className={styles.bad}>{state.error}</span>) : null}
      </span>
    </form>
  );
}
