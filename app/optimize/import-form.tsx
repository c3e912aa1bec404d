"use client";

import Link from "@/app/_components/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { formatBytes } from "@/app/_lib/format";
import { sendFileBody } from "@/app/_lib/send-file";
import { zipFileProblem, type SkillOptImportResponse } from "@/app/_lib/skillopt-import-rules";
import styles from "./optimize.module.css";

type Phase =
  | { kind: "idle" }
  | { kind: "uploading"; loaded: number; total: number }
  | { kind: "importing" }
  | { kind: "done"; id: number; message: string }
  | { kind: "error"; message: string };

/**
 * Import a SkillOpt output directory, zipped, as a browsable optimisation (not executed here). The zip is the raw body
 * of POST /api/optimizations/import, streamed from disk with upload progress, then unpacked and imported on the server.
 */
export function ImportSkillOptForm() {
  const router = useRouter();
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const busy = phase.kind === "uploading" || phase.kind === "importing";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    const problem = file instanceof File && file.name ? zipFileProblem(file.name, file.size) : "Choose the .zip of a SkillOpt output directory.";
    if (problem || !(file instanceof File)) return setPhase({ kind: "error", message: problem ?? "Choose the .zip of a SkillOpt output directory." });
    const params = new URLSearchParams({ fileName: file.name });
    const name = String(form.get("name") ?? "").trim();
    if (name) params.set("name", name);
    setPhase({ kind: "uploading", loaded: 0, total: file.size });
    try {
      const { status, body } = await sendFileBody<SkillOptImportResponse>(`/api/optimizations/import?${params}`, file, {
        onProgress: ({ loaded, total }) => setPhase({ kind: "uploading", loaded, total }),
        onSent: () => setPhase({ kind: "importing" }),
      });
      if (body && "id" in body) {
        setPhase({ kind: "done", id: body.id, message: body.message });
        router.refresh();
      } else {
        setPhase({ kind: "error", message: body?.error ?? `Nothing was imported: the server answered HTTP ${status}.` });
      }
    } catch (error) {
      setPhase({ kind: "error", message: `Nothing was imported. ${file.name}: ${(error as Error).message}` });
    }
  }

  return (
    <section className={`card ${styles.import}`} aria-labelledby="import-heading">
      <h2 id="import-heading">Import SkillOpt output</h2>
      <p className="muted">
        The output directory SkillOpt&apos;s Python code wrote (history.json, skills/, steps/, …), as a .zip: it becomes a browsable optimisation,
        marked imported. Its rollouts are not imported.
      </p>
      <form onSubmit={submit} aria-label="Import SkillOpt output">
        <div className={styles.importFields}>
          <div>
            <label htmlFor="import-file">SkillOpt output (.zip)</label>
            <input id="import-file" name="file" type="file" accept=".zip,application/zip" required />
          </div>
          <div>
            <label htmlFor="import-name">Skill name</label>
            <input id="import-name" name="name" type="text" placeholder="the zip's name" maxLength={200} />
          </div>
        </div>
        <p>
          <button type="submit" disabled={busy}>{busy ? "Importing…" : "Import"}</button>
        </p>
        <div aria-live="polite" data-testid="import-result">
          <ImportStatus phase={phase} />
        </div>
      </form>
    </section>
  );
}

function ImportStatus({ phase }: { phase: Phase }) {
  switch (phase.kind) {
    case "idle":
      return null;
    case "uploading":
      return (
        <div role="status">
          <progress max={phase.total || 1} value={phase.loaded} aria-label="Upload progress" />{" "}
          <span className="muted">Uploading… {formatBytes(phase.loaded)} of {formatBytes(phase.total)}</span>
        </div>
      );
    case "importing":
      return <p role="status" className="muted">Unpacking and importing… (nothing is stored unless every file reads)</p>;
    case "done":
      return <p className="notice-box">{phase.message} <Link href={`/optimize/${phase.id}`}>Open it</Link></p>;
    case "error":
      return <p className="error-box" role="alert">{phase.message}</p>;
  }
}
