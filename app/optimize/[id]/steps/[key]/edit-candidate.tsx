"use client";

import { useRouter } from "next/navigation";
import { useActionState } from "react";
import type { ActionResult } from "@/app/_lib/action-result";
import { decideCandidateAction } from "../../../actions";

/**
 * Manual mode: approve the candidate as a person changed it (drop or rewrite an edit). The text becomes a new
 * version of the skill, which the loop scores on val and gates again: the gate's answer stands.
 */
export function EditCandidate({ optimizationId, content }: { optimizationId: number; content: string }) {
  const router = useRouter();
  // On success the optimisation goes on: its page shows it (this form is gone once nothing waits).
  const [state, formAction, pending] = useActionState(async (_previous: ActionResult | null, formData: FormData) => {
    const result = await decideCandidateAction(formData);
    if (result.ok) router.push(`/optimize/${optimizationId}`);
    return result;
  }, null);
  return (
    <form action={formAction} aria-label="Edit the candidate">
      <input type="hidden" name="optimizationId" value={optimizationId} />
      <input type="hidden" name="decision" value="approve" />
      <label htmlFor="edited-skill">The candidate skill, as you want it</label>
      <textarea id="edited-skill" name="skill" rows={16} defaultValue={content} />
      <p>
        <button type="submit" className="primary" disabled={pending}>Approve edited candidate</button>{" "}
        <span className="hint" aria-live="polite">{state ? (state.ok ? state.message : <span style={{ color: "var(--bad)" }}>{state.error}</span>) : "It is scored on val and gated again."}</span>
      </p>
    </form>
  );
}
