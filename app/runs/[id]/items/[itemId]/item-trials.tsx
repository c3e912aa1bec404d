import Link from "@/app/_components/link";
import type { ItemQuery } from "@/lib/runs/item-query";
import { consistencyOf } from "@/lib/runs/trials";
import type { StoredItemResult } from "@/lib/runs/types";
import { formatLatency, formatScore } from "@/app/_lib/format";
import { itemHref } from "../../../_lib/item-links";
import { CELL_TEXT_CHARS, ShownText } from "../../../../_components/shown-text";
import styles from "./item.module.css";

const CONSISTENCY_LABELS = { always_right: "always right", always_wrong: "always wrong", flaky: "flaky: sometimes right" } as const;

/**
 * Every trial of the item side by side (runs with repeated trials): what each answered and how it scored, the one
 * shown below marked, each a link to its own conversation.
 */
export function ItemTrials(props: { runId: number; itemId: string; trials: StoredItemResult[]; shown: number; planned: number; query: Omit<ItemQuery, "page"> }) {
  const { runId, itemId, trials, shown, planned, query } = props;
  const right = trials.filter((trial) => trial.em >= 1).length;
  return (
    <section className={`card ${styles.section}`} aria-labelledby="trials-heading">
      <h2 id="trials-heading">
        Trials: {right} of {trials.length} right{trials.length < planned ? ` (${planned - trials.length} still to run)` : ""} ·{" "}
        {CONSISTENCY_LABELS[consistencyOf(right, trials.length)]}
      </h2>
      <table>
        <thead>
          <tr>
            <th>Trial</th>
            <th>Status</th>
            <th>Predicted</th>
            <th className="num">EM</th>
            <th className="num">F1</th>
            <th className="num">Latency</th>
          </tr>
        </thead>
        <tbody>
          {trials.map((trial) => (
            <tr key={trial.trial} aria-current={trial.trial === shown ? "true" : undefined} className={trial.trial === shown ? styles.currentTrial : undefined}>
              <td>
                {trial.trial === shown ? <strong>{trial.trial} (shown)</strong> : <Link href={itemHref(runId, itemId, query, trial.trial)}>Trial {trial.trial}</Link>}
              </td>
              <td><span className={`badge ${trial.status}`}>{trial.status}</span></td>
              <td>{trial.predictedAnswer ? <ShownText text={trial.predictedAnswer} max={CELL_TEXT_CHARS} /> : <span className="muted">{trial.failReason || "(none)"}</span>}</td>
              <td className="num">{trial.em >= 1 ? "1" : "0"}</td>
              <td className="num">{formatScore(trial.f1)}</td>
              <td className="num">{formatLatency(trial.latencyMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
