"use client";

import { startTransition, useActionState, useState, type FormEvent } from "react";
import { startRunAction } from "../actions";
import type { BackendOption } from "@/app/_lib/backends";
import type { StartRunDefaults } from "../_lib/start-run-defaults";
import type { ActionFailure } from "../../_lib/action-result";
import { BackendFieldset } from "./backend-fieldset";
import { describedBy, FormField, NumberField } from "@/app/_components/form-field";
import { ItemsFieldset } from "./items-fieldset";
import { ResponseCacheControl } from "./response-cache-control";
import styles from "./new-run.module.css";

export interface SkillVersionGroup {
  skillId: number;
  skillName: string;
  versions: { id: number; version: number; note: string | null }[];
}

interface NewRunFormProps {
  datasets: { id: number; name: string; itemCount: number }[];
  skills: SkillVersionGroup[];
  backends: BackendOption[];
  defaults: StartRunDefaults;
  /** What the response cache holds now (entries and bytes). */
  cacheSize: { entries: number; bytes: number };
}

export function NewRunForm({ datasets, skills, backends, defaults, cacheSize }: NewRunFormProps) {
  // The action only ever answers with a failure: on success it redirects to the new run.
  const [state, formAction, pending] = useActionState<ActionFailure | null, FormData>(startRunAction, null);
  const [diagnosticMode, setDiagnosticMode] = useState(defaults.diagnosticMode);
  const errors = state?.fields ?? {};

  // Submitting through the action directly (not <form action>) keeps what the user typed when the server
  // answers with field errors: React resets a form after its action returns.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => formAction(data));
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="New run">
      <section className="card">
        <h2>What to run</h2>
        <div className={styles.twoColumns}>
          <FormField id="run-datasetId" label="Dataset" error={errors.datasetId}>
            <select id="run-datasetId" name="datasetId" defaultValue={defaults.datasetId} {...describedBy("run-datasetId", errors.datasetId)}>
              <option value="">Choose a dataset…</option>
              {datasets.map((dataset) => (
                <option key={dataset.id} value={dataset.id}>{dataset.name} ({dataset.itemCount} items)</option>
              ))}
            </select>
          </FormField>
          <FormField id="run-skillVersionId" label="Skill version" error={errors.skillVersionId}>
            <select id="run-skillVersionId" name="skillVersionId" defaultValue={defaults.skillVersionId} {...describedBy("run-skillVersionId", errors.skillVersionId)}>
              <option value="">Choose a skill version…</option>
              {skills.map((skill) => (
                <optgroup key={skill.skillId} label={skill.skillName}>
                  {skill.versions.map((version) => (
                    <option key={version.id} value={version.id}>
                      {skill.skillName} v{version.version}{version.note ? ` — ${version.note}` : ""}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </FormField>
        </div>
        <ItemsFieldset defaults={defaults} errors={errors} />
      </section>

      <BackendFieldset backends={backends} defaults={defaults} errors={errors} />

      <section className="card">
        <h2>Settings</h2>
        <div className={styles.settingsGrid}>
          <NumberField name="concurrency" label="Concurrency" defaultValue={defaults.concurrency} error={errors.concurrency} hint="Items in flight at once, 1–512." />
          <NumberField name="maxTurns" label="Max turns" defaultValue={defaults.maxTurns} error={errors.maxTurns} hint="1 = answer once; more adds refinement turns." />
          <NumberField name="execTimeoutS" label="Model-call timeout (s)" defaultValue={defaults.execTimeoutS} error={errors.execTimeoutS} hint="Per model call (exec timeout)." />
          <NumberField name="taskTimeoutS" label="Task timeout (s)" defaultValue={defaults.taskTimeoutS} error={errors.taskTimeoutS} hint="Per item; at least the call timeout + 60 s." />
          <NumberField name="maxCompletionTokens" label="Max completion tokens" defaultValue={defaults.maxCompletionTokens} error={errors.maxCompletionTokens} />
          <NumberField name="temperature" label="Temperature (optional)" defaultValue={defaults.temperature} error={errors.temperature} hint="Blank: the server's default." />
          <NumberField name="maxRetries" label="Max retries" defaultValue={defaults.maxRetries} error={errors.maxRetries} hint="On 429, 5xx, timeouts." />
          <NumberField name="requestsPerMinute" label="Requests per minute (optional)" defaultValue={defaults.requestsPerMinute} error={errors.requestsPerMinute} hint="Blank: no cap. Applied before each request." />
          <NumberField name="tokensPerMinute" label="Tokens per minute (optional)" defaultValue={defaults.tokensPerMinute} error={errors.tokensPerMinute} hint="Blank: no cap." />
          <NumberField name="trials" label="Trials per item" defaultValue={defaults.trials} error={errors.trials} hint="1–100. More than 1 samples each item again: consistency, pass@k and pass^k." />
        </div>
        <div className="field">
          <label className={styles.inline}>
            <input type="checkbox" name="adaptiveConcurrency" defaultChecked={defaults.adaptiveConcurrency} />
            Adaptive concurrency
          </label>
          <p className="hint">Halves the requests in flight on 429s and timeouts, then raises them again, up to Concurrency.</p>
        </div>
        <div className="field">
          <label className={styles.inline}>
            <input type="checkbox" name="cache" defaultChecked={defaults.cache} />
            Use the response cache
          </label>
          <p className="hint">A request sent before (same model, settings and messages) is answered from the stored reply, at no cost; off: fresh samples.</p>
          <ResponseCacheControl size={cacheSize} />
        </div>
        <div className="field">
          <label className={styles.inline}>
            <input type="checkbox" name="diagnosticMode" checked={diagnosticMode} onChange={(event) => setDiagnosticMode(event.target.checked)} />
            Diagnostic mode
          </label>
          <p className="hint">Adds the instruction below to every question (the seed&apos;s training readout).</p>
        </div>
        <FormField id="run-diagnosticInstruction" label="Diagnostic instruction" error={errors.diagnosticInstruction}>
          <textarea
            id="run-diagnosticInstruction"
            name="diagnosticInstruction"
            rows={3}
            defaultValue={defaults.diagnosticInstruction}
            disabled={!diagnosticMode}
            {...describedBy("run-diagnosticInstruction", errors.diagnosticInstruction)}
          />
        </FormField>
        <FormField id="run-name" label="Name (optional)" error={errors.name}>
          <input id="run-name" name="name" type="text" defaultValue={defaults.name} placeholder="e.g. v3 on the dev split" {...describedBy("run-name", errors.name)} />
        </FormField>
      </section>

      {state ? (
        <p className="error-box" role="alert">
          {state.error}
        </p>
      ) : null}
      <div className={styles.submitRow}>
        <button type="submit" className="primary" disabled={pending}>Start run</button>
        <span className="hint" aria-live="polite">{pending ? "Starting…" : "The run continues on the server if you leave this page."}</span>
      </div>
    </form>
  );
}
