import type { FailureReasonCount } from "@/lib/db";
import type { LiveStats } from "@/lib/runs/live-stats";
import { formatCost, formatCount, formatRate } from "@/app/_lib/format";
import type { RunLivePayload } from "../../_lib/live-payload";
import type { RunSummary } from "../../_lib/run-summary";
import styles from "./run.module.css";

export function FailureReasons({ reasons }: { reasons: FailureReasonCount[] }) {
  return (
    <section className={`card ${styles.fixedCard}`}>
      <h2>Most common failure reasons</h2>
      {reasons.length === 0 ? (
        <p className="muted">No failures so far.</p>
      ) : (
        <table className={styles.compactTable}>
          <tbody>
            {reasons.map((reason) => (
              <tr key={reason.reason}>
                <td className={styles.reason} title={reason.reason}>{reason.reason}</td>
                <td className="num">{formatCount(reason.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function TokenUsage({ run, stats, measured, cachedItems, cost }: { run: RunSummary; stats: LiveStats; measured: boolean; cachedItems: number | null; cost: RunLivePayload["cost"] }) {
  // The seed's results.jsonl carries no usage: zeros there would read as "free", not as "unknown".
  if (run.source === "imported" && run.promptTokens + run.completionTokens === 0) {
    return (
      <section className={`card ${styles.fixedCard}`}>
        <h2>Tokens used</h2>
        <p className="muted">Not recorded: the imported file carries no token counts, latencies or retries.</p>
      </section>
    );
  }
  const rows: [string, string][] = [
    ["Prompt tokens", formatCount(run.promptTokens)],
    ["Completion tokens", formatCount(run.completionTokens)],
    ["Total tokens", formatCount(run.promptTokens + run.completionTokens)],
    ["Tokens per second", formatRate(stats.tokensPerSecond, { measured })],
    ["Retried calls", formatCount(run.retries)],
    ["Rate-limited responses (429)", formatCount(run.rateLimited)],
    // Cached replies cost no tokens: they are not in the totals above.
    ...(cachedItems === null ? [] : [["Answered from the response cache", `${formatCount(cachedItems)} cached`] as [string, string]]),
    ["Cost", cost.usd === null ? `${formatCost(null)} (no price for ${run.model})` : `${formatCost(cost.usd)} (${cost.priceSource})`],
  ];
  return (
    <section className={`card ${styles.fixedCard}`}>
      <h2>Tokens used</h2>
      <table className={styles.compactTable}>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <td>{label}</td>
              <td className="num">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
