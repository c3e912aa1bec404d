"use client";

import { useActionState } from "react";
import { useFormStatus } from "react-dom";
import type { ActionResult } from "../_lib/action-result";
import { startDemoRunAction } from "./actions";

/** The demo's form: one click starts the run and opens its page; a refusal (signed out) is shown, not swallowed. */
export function DemoRunForm() {
  const [result, action] = useActionState<ActionResult | null>(() => startDemoRunAction(), null);
  return (
    <form action={action}>
      <DemoRunButton />
      {result && !result.ok ? (
        <p role="alert" className="error-box">
          {result.error}
        </p>
      ) : null}
    </form>
  );
}

/** Disabled while the run is being created, so a double click does not start two runs. */
function DemoRunButton() {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className="primary" disabled={pending}>
      {pending ? "Starting the demo run…" : "Run the demo"}
    </button>
  );
}
