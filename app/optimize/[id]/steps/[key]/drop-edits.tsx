"use client";

import { useRouter } from "next/navigation";
import { useActionState } from "react";
import type { ActionResult } from "@/app/_lib/action-result";
import { dropEditsAction } from "../../../actions";

export interface DroppableEdit {
  id: number;
  ordinal: number;
  op: string;
  /** The edit's first line, what the checkbox is named by. */
  summary: string;
  applyStatus: string;
}

/**
 * Manual mode: keep some of the step's ranked edits and drop the others. The kept edits are applied again to the skill
 * the step edited; that candidate is a new version, scored on val and gated again (the gate's answer stands).
 */
export function DropEdits({ optimizationId, edits }: { optimizationId: number; edits: DroppableEdit[] }) {
  const router = useRouter();
  const [state, formAction, pending] = useActionState(async (_previous: ActionResult | null, formData: FormData) => {
    const result = await dropEditsAction(formData);
    if (result.ok) router.push(`/optimize/${optimizationId}`);
    return result;
  }, null);
  return (
    <form action={formAction} aria-label="Drop edits">
      <input type="hidden" name="optimizationId" value={optimizationId} />
      <fieldset>
        <legend>Edits to keep</legend>
        {edits.map((edit) => (
          <div key={edit.id}>
            <input type="checkbox" id={`keep-${edit.id}`} name="keep" value={edit.id} defaultChecked />{" "}
            <label htmlFor={`keep-${edit.id}`} style={{ display: "inline" }}>
              Keep edit {edit.ordinal + 1}: <strong>{edit.op}</strong> {edit.summary}
            </label>
            <span className="hint"> · {edit.applyStatus.replaceAll("_", " ")}</span>
          </div>
        ))}
      </fieldset>
      <p>
        <button type="submit" disabled={pending}>Drop unticked edits and re-run the gate</button>{" "}
        <span className="hint" aria-live="polite">
          {state ? (state.ok ? state.message : <span style={{ color: "var(--bad)" }} role="alert">{state.error}</span>) : "The kept edits are applied to the skill this step edited; the result is scored on val and gated again."}
        </span>
      </p>
    </form>
  );
}
