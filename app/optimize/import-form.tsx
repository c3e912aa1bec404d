"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { zipFileProblem } from "./_lib/import-rules";
import { importSkillOptZipAction } from "./import-actions";
import styles from "./optimize.module.css";

/** Import a SkillOpt output directory, zipped, as a browsable optimisation (not executed here). */
export function ImportSkillOptForm() {
  const [problem, setProblem] = useState<string | null>(null);
  const [state, formAction, pending] = useActionState(importSkillOptZipAction, null);
  return (
    <section className={`card ${styles.import}`} aria-labelledby="import-heading">
      <h2 id="import-heading">Import SkillOpt output</h2>
      <p className="muted">
        The output directory SkillOpt&apos;s Python code wrote (history.json, skills/, steps/, …), as a .zip: it becomes a browsable optimisation,
        marked imported. Its rollouts are not imported.
      </p>
      <form
        action={formAction}
        aria-label="Import SkillOpt output"
        onSubmit={(event) => {
          const file = (event.currentTarget.elements.namedItem("file") as HTMLInputElement).files?.[0];
          const found = file ? zipFileProblem(file.name, file.size) : "Choose the .zip of a SkillOpt output directory.";
          setProblem(found ?? null);
          if (found) event.preventDefault();
        }}
      >
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
          <button type="submit" disabled={pending}>{pending ? "Importing…" : "Import"}</button>
        </p>
        <div aria-live="polite" data-testid="import-result">
          {problem ? <p className="error-box" role="alert">{problem}</p> : state ? (state.ok ? <p className="notice-box">{state.message} <Link href={`/optimize/${state.data.id}`}>Open it</Link></p> : <p className="error-box" role="alert">{state.error}</p>) : null}
        </div>
      </form>
    </section>
  );
}
