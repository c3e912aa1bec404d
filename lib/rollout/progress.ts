import type { ItemResult } from "../runs/types";

export type RolloutEvent =
  | { kind: "resuming"; done: number; total: number }
  /** Something the user must know while the run waits (on PostgreSQL: this machine cannot take part in it, and why). */
  | { kind: "warning"; message: string }
  | { kind: "item"; completed: number; total: number; correct: number; result: ItemResult };

/** Progress in the seed's words, e.g. `  [rollout] 12/100 (acc=0.583) id=q7 hard=1`. */
export function formatRolloutEvent(event: RolloutEvent): string {
  if (event.kind === "resuming") return `  [rollout] resuming: ${event.done}/${event.total} already done`;
  if (event.kind === "warning") return `  [rollout] ${event.message}`;
  const acc = event.completed ? event.correct / event.completed : 0;
  const head = `  [rollout] ${event.completed}/${event.total} (acc=${acc.toFixed(3)}) id=${event.result.itemId}`;
  return event.result.phase === "timeout" ? `${head} TIMEOUT` : `${head} hard=${event.result.hard}`;
}
