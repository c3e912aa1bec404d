/**
 * The "Previous Steps in This Epoch" context of the analyst requests. Ports of `_extract_failure_patterns`,
 * `_format_step_buffer` (skillopt/engine/trainer.py) and the patch-mode `short_item_summary`
 * (skillopt/optimizer/update_modes.py) the trainer stores for rejected edits.
 */
import { isPyDict, type PyJson, pyGet, pyJsonStr, pyTruthy } from "../../export/python-json";
import { pyFloatRepr, pyStrip } from "../../text/python";

export interface FailurePattern {
  /** An analyst's failure summary, or the fail_reason prefix; any JSON value the analyst wrote (printed with str()). */
  pattern: PyJson;
  count: number;
  taskIds: string[];
}

/** One step of the epoch so far (upstream's `buf_entry`; steps skipped for lack of patches are not in it). */
export interface StepBufferEntry {
  step: number;
  /** The gate's action: accept, accept_new_best, reject, force_accept. */
  action: string;
  nTotal: number;
  nFail: number;
  failurePatterns: readonly FailurePattern[];
  /** Only on a rejected step: the ranked edits that were tried and the gate scores (Python floats). */
  rejected?: { scoreBefore: number; scoreAfter: number; edits: readonly PyJson[] };
}

/** A failed rollout row of the step (upstream's failure test: `hard` below 1e-9), in row order. */
export interface FailedRow {
  id: string;
  failReason: string;
}

/**
 * Where upstream saved a failure minibatch's patch, relative to the step folder; `_extract_failure_patterns`
 * reads the files in sorted order of this path (so with accumulation, `batch_10` comes before `batch_2`).
 */
export function failurePatchPath(accumulation: number, batchIndex: number, minibatchIndex: number): string {
  const file = `patches/minibatch_fail_${String(minibatchIndex).padStart(3, "0")}.json`;
  return accumulation > 1 ? `batch_${batchIndex}/${file}` : file;
}

/**
 * The analyst descriptions one saved failure patch contributes: `"{failure_type}: {description}"` per
 * summary entry (just the type when the description is falsy). A summary that is not a list, or an entry
 * that is not an object, raises inside upstream's try block: the entries before it count, the rest are lost.
 */
function analystDescriptions(failureSummary: PyJson | undefined): PyJson[] {
  if (failureSummary === undefined || !Array.isArray(failureSummary)) {
    // A missing key iterates `[]`; a str or dict iterates items without `.get` (AttributeError); others are
    // not iterable (TypeError). All give nothing.
    return [];
  }
  const descriptions: PyJson[] = [];
  for (const entry of failureSummary as readonly PyJson[]) {
    if (!isPyDict(entry)) break;
    const failureType = pyGet(entry, "failure_type", "");
    const description = pyGet(entry, "description", "");
    descriptions.push(pyTruthy(description) ? `${pyJsonStr(failureType)}: ${pyJsonStr(description)}` : failureType);
  }
  return descriptions;
}

/**
 * `_extract_failure_patterns`: failures grouped by the part of fail_reason before the first `:`, in order of
 * first appearance; the i-th group is described by the i-th analyst description (of all saved failure patches,
 * in `failurePatchPath` order), or by its prefix when descriptions run out or the description is falsy.
 * `failureSummaries` holds each saved patch's `failure_summary` value (undefined when the key is missing).
 */
export function extractFailurePatterns(
  failures: readonly FailedRow[],
  failureSummaries: readonly (PyJson | undefined)[],
): FailurePattern[] {
  const groups = new Map<string, string[]>();
  for (const row of failures) {
    const reason = row.failReason;
    const prefix = reason.includes(":") ? pyStrip(reason.split(":")[0] ?? "") : reason;
    const ids = groups.get(prefix) ?? [];
    ids.push(row.id);
    groups.set(prefix, ids);
  }
  const descriptions = failureSummaries.flatMap((summary) => analystDescriptions(summary));
  return [...groups].map(([prefix, taskIds], index) => {
    const description = index < descriptions.length ? descriptions[index] : null;
    return { pattern: pyTruthy(description ?? null) ? (description as PyJson) : prefix, count: taskIds.length, taskIds };
  });
}

function rejectedEditLine(index: number, edit: { readonly [key: string]: PyJson }): string {
  // short_item_summary keeps op and target as they are and str()s the content.
  const op = pyGet(edit, "op", "?");
  const content = pyJsonStr(pyGet(edit, "content", ""));
  const target = pyGet(edit, "target", "");
  // An edit whose op is null falls into the rewrite-mode branch, where it has none of the fields.
  if (op === null) return `    ${index}. [?] "" → ""`;
  if (pyTruthy(target)) return `    ${index}. [${pyJsonStr(op)}] target="${pyJsonStr(target)}" → "${content}"`;
  return `    ${index}. [${pyJsonStr(op)}] "${content}"`;
}

/** `_format_step_buffer`: "" for an empty buffer. */
export function formatStepBuffer(buffer: readonly StepBufferEntry[]): string {
  if (buffer.length === 0) return "";
  const parts = [
    "Below is a summary of previous steps in this epoch. " +
      "Use it to avoid repeating ineffective edits and to prioritise " +
      "failure patterns that remain unsolved.\n",
  ];
  for (const entry of buffer) {
    parts.push(`### Step ${entry.step} — ${entry.action.toUpperCase()} (${entry.nFail}/${entry.nTotal} failed)`);
    for (const p of entry.failurePatterns) {
      parts.push(`  - "${pyJsonStr(p.pattern)}" (×${p.count}, tasks: ${p.taskIds.join(", ")})`);
    }
    // Upstream keeps only the ranked items that are objects.
    const edits = (entry.rejected?.edits ?? []).filter(isPyDict);
    if (entry.rejected && edits.length > 0) {
      parts.push(
        `  Rejected edits (score ${pyFloatRepr(entry.rejected.scoreBefore)} → ${pyFloatRepr(entry.rejected.scoreAfter)}):`,
      );
      edits.forEach((edit, i) => parts.push(rejectedEditLine(i + 1, edit)));
    }
  }
  return parts.join("\n");
}
