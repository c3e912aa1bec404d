"use client";

import { startTransition, useActionState, useRef, useState, type FormEvent } from "react";
import { describedBy, FormField, NumberField } from "@/app/_components/form-field";
import { formatCount } from "@/app/_lib/format";
import { estimateOptimizationAction, startOptimizationAction, type Estimate } from "../actions";
import type { LoopValues, OptimizationField, OptimizationFormFailure } from "../_lib/optimization-form";
import styles from "./new-optimization.module.css";

interface BackendChoice {
  backend: "openai" | "azure";
  label: string;
  configured: boolean;
  detail: string;
  defaultModel: string;
}

interface Props {
  datasets: { id: number; name: string; itemCount: number }[];
  versions: { id: number; label: string }[];
  backends: BackendChoice[];
  defaults: { skillVersionId: string; sourceDatasetId: string; target: Record<"concurrency" | "maxTurns" | "execTimeoutS" | "maxCompletionTokens" | "maxRetries" | "temperature", string> };
  presets: { default: LoopValues; paper: LoopValues };
}

type Errors = Partial<Record<OptimizationField, string>>;

export function NewOptimizationForm({ datasets, versions, backends, defaults, presets }: Props) {
  // Start only ever answers with a failure: on success it redirects to the new optimisation's page.
  const [state, startAction, starting] = useActionState<OptimizationFormFailure | null, FormData>(startOptimizationAction, null);
  const [estimate, setEstimate] = useState<{ estimate: Estimate; notices: string[] } | null>(null);
  const [estimateError, setEstimateError] = useState<OptimizationFormFailure | null>(null);
  const [estimating, setEstimating] = useState(false);
  const [datasetMode, setDatasetMode] = useState<"parts" | "split">("split");
  const [loop, setLoop] = useState<LoopValues>(presets.default);
  const [gate, setGate] = useState("strict");
  const form = useRef<HTMLFormElement>(null);
  const failure = state ?? estimateError;
  const errors: Errors = failure?.fields ?? {};
  const firstConfigured = backends.find((option) => option.configured)?.backend ?? "openai";

  // Through the action directly (not <form action>): React would reset the form when the action answers.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEstimateError(null);
    const data = new FormData(event.currentTarget);
    startTransition(() => startAction(data));
  };
  const runEstimate = async () => {
    if (!form.current) return;
    setEstimating(true);
    try {
      const result = await estimateOptimizationAction(new FormData(form.current));
      if (result.ok) {
        setEstimate(result.data);
        setEstimateError(null);
      } else {
        setEstimate(null);
        setEstimateError(result);
      }
    } finally {
      setEstimating(false);
    }
  };
  const setField = (field: keyof LoopValues, value: string | boolean) => setLoop((current) => ({ ...current, [field]: value }));
  const loopNumber = (name: keyof LoopValues, label: string, hint?: string) => (
    <FormField id={`opt-${name}`} label={label} error={errors[name]} hint={hint}>
      <input id={`opt-${name}`} name={name} type="text" inputMode="decimal" value={String(loop[name])} onChange={(event) => setField(name, event.target.value)} {...describedBy(`opt-${name}`, errors[name], Boolean(hint))} />
    </FormField>
  );
  const loopCheck = (name: keyof LoopValues, label: string) => (
    <label className={styles.inline}>
      <input type="checkbox" name={name} checked={loop[name] === true} onChange={(event) => setField(name, event.target.checked)} />
      {label}
    </label>
  );
  const datasetSelect = (name: OptimizationField, label: string, optional = false, initial = "") => (
    <FormField id={`opt-${name}`} label={label} error={errors[name]}>
      <select id={`opt-${name}`} name={name} defaultValue={initial} {...describedBy(`opt-${name}`, errors[name])}>
        <option value="">{optional ? "None (no test evaluation)" : "Choose a dataset…"}</option>
        {datasets.map((dataset) => <option key={dataset.id} value={dataset.id}>{dataset.name} ({dataset.itemCount} items)</option>)}
      </select>
    </FormField>
  );

  return (
    <form ref={form} className={styles.form} onSubmit={submit} noValidate aria-label="New optimisation">
      <section className="card">
        <h2>Skill and data</h2>
        <FormField id="opt-skillVersionId" label="Skill version" error={errors.skillVersionId}>
          <select id="opt-skillVersionId" name="skillVersionId" defaultValue={defaults.skillVersionId} {...describedBy("opt-skillVersionId", errors.skillVersionId)}>
            <option value="">Choose a skill version…</option>
            {versions.map((version) => <option key={version.id} value={version.id}>{version.label}</option>)}
          </select>
        </FormField>
        <fieldset className={styles.choices}>
          <legend className="visually-hidden">Datasets</legend>
          <label className={styles.inline}>
            <input type="radio" name="datasetMode" value="split" checked={datasetMode === "split"} onChange={() => setDatasetMode("split")} />
            Create a split of one dataset
          </label>
          <label className={styles.inline}>
            <input type="radio" name="datasetMode" value="parts" checked={datasetMode === "parts"} onChange={() => setDatasetMode("parts")} />
            Existing train / val / test datasets
          </label>
        </fieldset>
        {datasetMode === "split" ? (
          <div className={styles.grid}>
            {datasetSelect("sourceDatasetId", "Dataset to split", false, defaults.sourceDatasetId)}
            <FormField id="opt-splitRatio" label="Split ratio" error={errors.splitRatio} hint="train:val:test, SkillOpt's ratio mode">
              <input id="opt-splitRatio" name="splitRatio" type="text" defaultValue="2:1:7" {...describedBy("opt-splitRatio", errors.splitRatio, true)} />
            </FormField>
            <NumberField idPrefix="opt" name="splitSeed" label="Split seed" defaultValue="42" error={errors.splitSeed} hint="The parts are stored as datasets; the same split is reused." />
          </div>
        ) : (
          <div className={styles.grid}>
            {datasetSelect("trainDatasetId", "Train dataset")}
            {datasetSelect("valDatasetId", "Val dataset")}
            {datasetSelect("testDatasetId", "Test dataset", true)}
          </div>
        )}
      </section>

      <section className="card">
        <h2>Models</h2>
        <div className={styles.grid}>
          <BackendSelect id="opt-backend" name="backend" label="Target backend" backends={backends} initial={firstConfigured} error={errors.backend} />
          <FormField id="opt-model" label="Target model" error={errors.model} hint="Blank: the server's default">
            <input id="opt-model" name="model" type="text" placeholder={backends.find((option) => option.backend === firstConfigured)?.defaultModel} {...describedBy("opt-model", errors.model, true)} />
          </FormField>
          <BackendSelect id="opt-optimizerBackend" name="optimizerBackend" label="Optimizer backend" backends={backends} initial={firstConfigured} error={errors.optimizerBackend} />
          <FormField id="opt-optimizerModel" label="Optimizer model" error={errors.optimizerModel} hint="Blank: the server's default">
            <input id="opt-optimizerModel" name="optimizerModel" type="text" placeholder={backends.find((option) => option.backend === firstConfigured)?.defaultModel} {...describedBy("opt-optimizerModel", errors.optimizerModel, true)} />
          </FormField>
        </div>
        <div className={styles.grid}>
          <NumberField idPrefix="opt" name="concurrency" label="Concurrency" defaultValue={defaults.target.concurrency} error={errors.concurrency} hint="Target calls in flight (SearchQA: 24)." />
          <NumberField idPrefix="opt" name="maxTurns" label="Max turns" defaultValue={defaults.target.maxTurns} error={errors.maxTurns} />
          <NumberField idPrefix="opt" name="execTimeoutS" label="Model-call timeout (s)" defaultValue={defaults.target.execTimeoutS} error={errors.execTimeoutS} />
          <NumberField idPrefix="opt" name="maxCompletionTokens" label="Max completion tokens" defaultValue={defaults.target.maxCompletionTokens} error={errors.maxCompletionTokens} />
          <NumberField idPrefix="opt" name="maxRetries" label="Max retries" defaultValue={defaults.target.maxRetries} error={errors.maxRetries} />
          <NumberField idPrefix="opt" name="temperature" label="Temperature (optional)" defaultValue={defaults.target.temperature} error={errors.temperature} />
          <NumberField idPrefix="opt" name="optimizerConcurrency" label="Optimizer concurrency" defaultValue="16" error={errors.optimizerConcurrency} hint="analyst_workers" />
        </div>
      </section>

      <section className="card">
        <h2>Loop</h2>
        <div className={styles.presets}>
          <span className="hint">Presets:</span>
          <button type="button" onClick={() => setLoop(presets.default)}>SkillOpt default</button>
          <button type="button" onClick={() => setLoop(presets.paper)}>SkillOpt paper</button>
          <span className="hint">paper: the slow update is gated on val</span>
        </div>
        <div className={styles.grid}>
          {loopNumber("epochs", "Epochs")}
          {loopNumber("batchSize", "Batch size")}
          {loopNumber("accumulation", "Accumulation")}
          {loopNumber("minibatchSize", "Minibatch size")}
          {loopNumber("mergeBatchSize", "Merge batch size")}
          {loopNumber("learningRate", "Learning rate", "Edits per step at first")}
          {loopNumber("minLearningRate", "Min learning rate")}
          <FormField id="opt-lrScheduler" label="LR schedule" error={errors.lrScheduler}>
            <select id="opt-lrScheduler" name="lrScheduler" value={String(loop.lrScheduler)} onChange={(event) => setField("lrScheduler", event.target.value)}>
              {["cosine", "linear", "constant"].map((mode) => <option key={mode} value={mode}>{mode}</option>)}
            </select>
          </FormField>
          {loopNumber("slowUpdateSamples", "Slow-update samples")}
          {loopNumber("seed", "Seed")}
        </div>
        <div className={styles.choices}>
          {loopCheck("slowUpdate", "Slow update at epoch ends")}
          {loopCheck("slowUpdateGate", "Gate the slow update on val")}
          {loopCheck("metaSkill", "Meta skill")}
          {loopCheck("failureOnly", "Failures only")}
        </div>
      </section>

      <section className="card">
        <h2>Gate, approval and caps</h2>
        <div className={styles.grid}>
          <FormField id="opt-gate" label="Gate" error={errors.gate} hint={gate === "strict" ? "The seed's rule: strictly better val score" : gate === "mcnemar" ? "Deviation from the seed: McNemar's test on the changed val items" : "Deviation: every candidate accepted"}>
            <select id="opt-gate" name="gate" value={gate} onChange={(event) => setGate(event.target.value)} {...describedBy("opt-gate", errors.gate, true)}>
              <option value="strict">strict (seed)</option>
              <option value="mcnemar">mcnemar (noise-aware)</option>
              <option value="none">none</option>
            </select>
          </FormField>
          <NumberField idPrefix="opt" name="alpha" label="Alpha" defaultValue="0.05" error={errors.alpha} disabled={gate !== "mcnemar"} hint="For the McNemar gate" />
          <label className={styles.inline} title="Deviation from the seed: one extra val run of a skill that inherited its score from a slow update, so every step has fixed / broken and the McNemar p-value (always on with the McNemar gate)">
            <input type="checkbox" name="measureInherited" />
            Measure inherited val scores
          </label>
          <FormField id="opt-approval" label="Approval" error={errors.approval} hint="Manual: a candidate the gate accepts waits for your decision">
            <select id="opt-approval" name="approval" defaultValue="auto" {...describedBy("opt-approval", errors.approval, true)}>
              <option value="auto">automatic (seed)</option>
              <option value="manual">manual</option>
            </select>
          </FormField>
        </div>
        <div className={styles.grid}>
          <NumberField idPrefix="opt" name="maxTargetCalls" label="Max target calls" defaultValue="" error={errors.maxTargetCalls} hint="Blank: no cap" />
          <NumberField idPrefix="opt" name="maxOptimizerTokens" label="Max optimizer tokens" defaultValue="" error={errors.maxOptimizerTokens} hint="Blank: no cap" />
          <NumberField idPrefix="opt" name="maxWallS" label="Max wall time (s)" defaultValue="" error={errors.maxWallS} hint="Blank: no cap" />
        </div>
        <FormField id="opt-name" label="Name (optional)" error={errors.name}>
          <input id="opt-name" name="name" type="text" placeholder="e.g. topic skill, paper preset" {...describedBy("opt-name", errors.name)} />
        </FormField>
      </section>

      <section className="card" aria-labelledby="estimate-heading">
        <h2 id="estimate-heading">Estimate</h2>
        {estimate ? <EstimateView estimate={estimate.estimate} notices={estimate.notices} /> : <p className="hint">What the optimisation will cost, from the settings and the datasets.</p>}
        <button type="button" onClick={runEstimate} disabled={estimating}>{estimating ? "Estimating…" : "Estimate cost"}</button>
      </section>

      {failure ? <p className="error-box" role="alert">{failure.error}</p> : null}
      <div className={styles.submitRow}>
        <button type="submit" className="primary" disabled={starting}>Start optimisation</button>
        <span className="hint" aria-live="polite">{starting ? "Starting…" : "It runs on the server; you can leave this page."}</span>
      </div>
    </form>
  );
}

function BackendSelect({ id, name, label, backends, initial, error }: { id: string; name: string; label: string; backends: BackendChoice[]; initial: string; error?: string }) {
  const [value, setValue] = useState(initial);
  const chosen = backends.find((option) => option.backend === value);
  return (
    <FormField id={id} label={label} error={error} hint={chosen?.detail}>
      <select id={id} name={name} value={value} onChange={(event) => setValue(event.target.value)} {...describedBy(id, error, Boolean(chosen?.detail))}>
        {backends.map((option) => <option key={option.backend} value={option.backend} disabled={!option.configured}>{option.label}{option.configured ? "" : " (not configured)"}</option>)}
      </select>
    </FormField>
  );
}

function EstimateView({ estimate, notices }: { estimate: Estimate; notices: string[] }) {
  const range = (value: { min: number; max: number }) => `${formatCount(value.min)} – ${formatCount(value.max)}`;
  return (
    <dl className={styles.estimate} data-testid="estimate">
      <dt>Data</dt>
      <dd>{estimate.train_items} train · {estimate.val_items} val · {estimate.test_items} test items; {estimate.epochs} epochs × {estimate.steps_per_epoch} steps = {estimate.steps} steps</dd>
      <dt>Target calls</dt>
      <dd>{range(estimate.target_calls)} <span className="hint">({estimate.target_calls.note})</span></dd>
      <dt>Optimizer calls</dt>
      <dd>{range(estimate.optimizer_calls)}</dd>
      <dt>Optimizer tokens</dt>
      <dd>{range(estimate.optimizer_tokens)} <span className="hint">({estimate.optimizer_tokens.note})</span></dd>
      {notices.map((notice) => <dd key={notice} className="hint">{notice}</dd>)}
    </dl>
  );
}
