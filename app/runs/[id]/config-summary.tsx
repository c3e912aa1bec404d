import { effectiveTaskTimeoutS } from "@/lib/runs/run-config";
import { formatDateTime, modelLabel } from "@/app/_lib/format";
import type { RunSummary } from "../../_lib/run-summary";
import styles from "./run.module.css";

const BACKEND_LABEL: Record<string, string> = { openai: "OpenAI-compatible", azure: "Azure OpenAI", baseline: "offline baseline", agent: "agent (command line)" };

function itemsLabel(run: RunSummary): string {
  const { limit, sample } = run.config.settings;
  if (sample) return `random sample of ${sample.size} (seed ${sample.seed}) → ${run.itemsTotal} items`;
  if (limit !== undefined) return `first ${limit} → ${run.itemsTotal} items`;
  return `all ${run.itemsTotal} items`;
}

/** The run's settings as stored with it (a snapshot: later changes to the environment do not alter it). */
export function ConfigSummary({ run }: { run: RunSummary }) {
  if (run.source === "imported") {
    return (
      <section className={`card ${styles.configCard}`}>
        <h2>Configuration</h2>
        <p className="muted">
          Imported from a results file on {formatDateTime(run.createdAt)}. The file does not record the model or the settings it
          ran with, so none are shown; {run.itemsTotal} items were read from it.
        </p>
      </section>
    );
  }
  const settings = run.config.settings;
  const rows: [string, string][] = [
    ["Backend", BACKEND_LABEL[run.backend] ?? run.backend],
    ["Model", modelLabel(run)],
    ...(run.config.model.baseURL ? ([["Server", run.config.model.baseURL]] as [string, string][]) : []),
    ...(run.config.model.agent
      ? ([["Agent", run.config.model.agent], ["Keep workspaces", run.config.model.keepWorkspaces ? "all" : "items not correct"]] as [string, string][])
      : []),
    ["Items", itemsLabel(run)],
    ["Concurrency", String(settings.concurrency)],
    ["Max turns", String(settings.maxTurns)],
    ["Model-call timeout", `${settings.execTimeoutS} s`],
    ["Task timeout", `${settings.taskTimeoutS} s (effective ${effectiveTaskTimeoutS(settings)} s)`],
    ["Max completion tokens", String(settings.maxCompletionTokens)],
    ["Temperature", settings.temperature === undefined ? "server default" : String(settings.temperature)],
    ["Max retries", String(settings.maxRetries)],
    ["Diagnostic mode", settings.diagnosticMode ? "on" : "off"],
    ["Created", formatDateTime(run.createdAt)],
  ];
  return (
    <section className={`card ${styles.configCard}`}>
      <h2>Configuration</h2>
      <dl className={styles.config}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {settings.diagnosticMode && settings.diagnosticInstruction ? (
        <>
          <h3>Diagnostic instruction</h3>
          <pre>{settings.diagnosticInstruction}</pre>
        </>
      ) : null}
    </section>
  );
}
