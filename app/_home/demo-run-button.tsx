"use client";

import { useFormStatus } from "react-dom";

/** The demo form's button: disabled while the run is being created, so a double click does not start two runs. */
export function DemoRunButton() {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className="primary" disabled={pending}>
      {pending ? "Starting the demo run…" : "Run the demo"}
    </button>
  );
}
