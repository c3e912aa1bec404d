"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import styles from "./runs.module.css";

export const COMPARE_FORM_ID = "compare-runs";

/**
 * "Compare selected": the runs ticked in the table (their checkboxes belong to this form), oldest first, the first being
 * the reference. Only runs on one dataset pair item by item, so a mixed selection is refused with a message. Without
 * script the form still submits (GET /compare?runs=…), and the compare page checks the datasets itself.
 */
export function CompareSelected() {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const boxes = [...document.querySelectorAll<HTMLInputElement>(`input[form="${COMPARE_FORM_ID}"]:checked`)];
    const picked = boxes.map((box) => ({ id: Number(box.value), dataset: box.dataset.datasetName ?? "", datasetId: box.dataset.datasetId }));
    if (picked.length < 2) return setMessage("Tick at least two runs to compare.");
    const datasets = new Set(picked.map((run) => run.datasetId));
    if (datasets.size > 1) {
      const names = [...new Set(picked.map((run) => run.dataset))].join(", ");
      return setMessage(`Only runs on the same dataset can be compared (these are on ${names}).`);
    }
    setMessage(null);
    router.push(`/compare?runs=${picked.map((run) => run.id).sort((a, b) => a - b).join(",")}`);
  };
  return (
    <form id={COMPARE_FORM_ID} method="get" action="/compare" onSubmit={onSubmit} className={styles.compareForm}>
      <button type="submit">Compare selected</button>
      <span className="hint">Tick runs on the same dataset; the oldest is the reference.</span>
      {message ? <p className="error-box" role="alert">{message}</p> : null}
    </form>
  );
}
