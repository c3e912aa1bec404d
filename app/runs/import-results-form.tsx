"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ResultsImportResponse } from "@/app/_lib/results-import-response";
import styles from "./runs.module.css";

type Phase = { kind: "idle" } | { kind: "sending" } | { kind: "error"; message: string };

/**
 * "Import results": a results file (the seed's results.jsonl or Skillboard's JSONL export) sent as the raw request
 * body to POST /api/runs/import (the browser streams it from disk), optionally against an existing dataset.
 */
export function ImportResultsForm({ datasets }: { datasets: { id: number; name: string }[] }) {
  const router = useRouter();
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return setPhase({ kind: "error", message: "Choose a results file first." });
    const params = new URLSearchParams({ fileName: file.name });
    for (const key of ["name", "datasetId"] as const) {
      const value = String(form.get(key) ?? "").trim();
      if (value) params.set(key, value);
    }
    setPhase({ kind: "sending" });
    try {
      const response = await fetch(`/api/runs/import?${params}`, { method: "POST", body: file, headers: { "Content-Type": "application/octet-stream" } });
      const body = (await response.json().catch(() => undefined)) as ResultsImportResponse | undefined;
      if (body && "runId" in body) return router.push(`/runs/${body.runId}`);
      setPhase({ kind: "error", message: body && "error" in body ? body.error : `The import failed (HTTP ${response.status}).` });
    } catch {
      setPhase({ kind: "error", message: "The import failed: the server could not be reached." });
    }
  }

  return (
    <details className={`card ${styles.importBox}`}>
      <summary>Import results</summary>
      <form onSubmit={submit} aria-label="Import results">
        <p className="muted">
          The seed&apos;s <code>results.jsonl</code> or a Skillboard JSONL export. Without a dataset, one is made from the rows&apos;
          ids, questions and gold answers. A repeated id keeps its last row; any bad line is reported and nothing is stored.
        </p>
        <div className="field">
          <label htmlFor="import-file">Results file</label>
          <input id="import-file" name="file" type="file" accept=".jsonl,.ndjson,.json" required />
        </div>
        <div className="field">
          <label htmlFor="import-dataset">Dataset</label>
          <select id="import-dataset" name="datasetId" defaultValue="">
            <option value="">Make one from the rows</option>
            {datasets.map((dataset) => <option key={dataset.id} value={dataset.id}>{dataset.name} (#{dataset.id})</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="import-name">Run name</label>
          <input id="import-name" name="name" type="text" maxLength={200} placeholder="the file's name" />
        </div>
        <button type="submit" className="primary" disabled={phase.kind === "sending"}>{phase.kind === "sending" ? "Importing…" : "Import"}</button>
        {phase.kind === "error" ? <pre role="alert" className={styles.importError}>{phase.message}</pre> : null}
      </form>
    </details>
  );
}
