"use client";

import { startTransition, useActionState, useState } from "react";
import { formatBytes, formatCount } from "@/app/_lib/format";
import type { ActionResult } from "../../_lib/action-result";
import { clearResponseCacheAction } from "../actions";
import styles from "./new-run.module.css";

/**
 * Beside the New run form's cache switch: how much the response cache holds, and clearing it after a confirm step.
 * Buttons, not a form: it sits inside the New run form, and forms cannot nest. The size comes from the server page,
 * which the action revalidates, so it reads 0 once cleared.
 */
export function ResponseCacheControl({ size }: { size: { entries: number; bytes: number } }) {
  const [confirming, setConfirming] = useState(false);
  const [state, dispatch, pending] = useActionState(async (_previous: ActionResult | null, formData: FormData) => clearResponseCacheAction(formData), null);
  const clear = () => {
    const data = new FormData();
    data.set("confirm", "clear");
    setConfirming(false);
    startTransition(() => dispatch(data));
  };
  const replies = `${formatCount(size.entries)} stored repl${size.entries === 1 ? "y" : "ies"}`;
  return (
    <div className={styles.cacheControl} role="group" aria-label="Response cache">
      <span className="hint" data-testid="response-cache-size">The cache holds {replies} ({formatBytes(size.bytes)}).</span>
      {confirming ? (
        <>
          <span className="hint">Remove all {replies}? Runs that use the cache will ask the model again.</span>
          <button type="button" className="danger" onClick={clear}>Yes, clear the cache</button>
          <button type="button" onClick={() => setConfirming(false)}>Keep it</button>
        </>
      ) : (
        <button type="button" className="danger" onClick={() => setConfirming(true)} disabled={pending || size.entries === 0}>Clear response cache</button>
      )}
      <span className="hint" aria-live="polite">
        {pending ? "Clearing…" : state ? (state.ok ? state.message : <span className={styles.fieldError}>{state.error}</span>) : null}
      </span>
    </div>
  );
}
