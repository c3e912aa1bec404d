import { itemQueryParams, type ItemQuery } from "@/lib/runs/item-query";
import styles from "./run.module.css";

const FORMATS = [
  { format: "csv", label: "CSV", title: "one row per item (and trial): scores, status, fail reason, latency, tokens, turns" },
  { format: "jsonl", label: "JSONL", title: "one object per item (and trial) with the full conversation and prompts" },
  { format: "seed", label: "results.jsonl (seed)", title: "the SkillOpt seed's results.jsonl rows" },
] as const;

/** The seed's file has one row per item: of a run with repeated trials it holds the first trial, and says so. */
function formatsFor(trials: number) {
  return FORMATS.map((entry) =>
    entry.format === "seed" && trials > 1
      ? { ...entry, label: "results.jsonl (seed, trial 1 only)", title: `the seed's format has one row per item: only trial 1 of ${trials} is written` }
      : entry,
  );
}

/** The run's downloads: every result in each format, and the summary. Plain links to the HTTP API, so they stream. */
export function RunDownloads({ runId, trials }: { runId: number; trials: number }) {
  return (
    <nav className={styles.downloads} aria-label="Download results">
      <span className="muted">Download all results:</span>
      {formatsFor(trials).map(({ format, label, title }) => (
        <a key={format} href={`/api/runs/${runId}/results?format=${format}`} title={title} download>{label}</a>
      ))}
      <a href={`/api/runs/${runId}/summary`} title="configuration, metrics, counts, timings, skill and dataset identity" download>Summary JSON</a>
    </nav>
  );
}

/** "Download this view": the same formats restricted to the explorer's filter, failure group and search, in its order. */
export function ViewDownloads({ runId, query, trials }: { runId: number; query: ItemQuery; trials: number }) {
  const params = itemQueryParams(query, { page: false });
  return (
    <nav className={styles.downloads} aria-label="Download this view">
      <span className="muted">Download this view:</span>
      {formatsFor(trials).map(({ format, label, title }) => {
        params.set("format", format);
        return <a key={format} href={`/api/runs/${runId}/results?${params.toString()}`} title={title} download>{label}</a>;
      })}
    </nav>
  );
}
