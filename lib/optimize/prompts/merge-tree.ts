/**
 * What the merge requests contain depends on how upstream builds and threads the patches between levels, so
 * that bookkeeping is ported here next to the requests: `_normalise_patches` (skillopt/engine/trainer.py),
 * and from skillopt/gradient/aggregate.py the level batching of `_hierarchical_merge`, the reply check and
 * concatenation fallback of `_merge_batch`, and the shortcuts and fallback of the final combine in
 * `merge_patches`. Values are Python json values (PyJson), objects in upstream's key order; upstream mutates
 * dicts in place, these functions return copies with the same keys in the same order.
 */
import { isPyDict, PyFloat, type PyJson, pyGet, pyTruthy } from "../../export/python-json";

type PyDict = { readonly [key: string]: PyJson };

export { payloadEdits } from "../ranking";
import { payloadEdits } from "../ranking";

/** Upstream's int() of the analyst's `batch_size` failed (it crashes there; Skillboard records it). */
export class BatchSizeError extends Error {}

/** Python `int(x)` for the (truthy) json values an analyst may write as its batch_size. */
function pyInt(value: PyJson): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number" || value instanceof PyFloat) {
    const n = typeof value === "number" ? value : value.value;
    if (!Number.isFinite(n)) throw new BatchSizeError(`cannot convert float ${n} to integer`);
    return Math.trunc(n);
  }
  // int(str): optional whitespace, sign, digits with single underscores between them.
  if (typeof value === "string") {
    const match = /^\s*([+-]?\d+(?:_\d+)*)\s*$/.exec(value);
    if (match?.[1]) return Number(match[1].replaceAll("_", ""));
    throw new BatchSizeError(`invalid literal for int() with base 10: ${JSON.stringify(value)}`);
  }
  throw new BatchSizeError(`int() argument must be a string or a number, not ${Array.isArray(value) ? "list" : "dict"}`);
}

/**
 * `_normalise_patches`: the inner `patch` of each analyst result (the result itself when it has none) that
 * has edits, its object edits given `source_type` and `support_count` (max(int(batch_size), 1)) unless present;
 * split by the result's source_type. Throws BatchSizeError where upstream's int() raises.
 */
export function normalisePatches(rawPatches: readonly PyJson[]): { failure: PyDict[]; success: PyDict[] } {
  const failure: PyDict[] = [];
  const success: PyDict[] = [];
  for (const raw of rawPatches) {
    if (!isPyDict(raw)) continue;
    const inner = pyGet(raw, "patch", raw);
    if (!isPyDict(inner)) continue;
    const edits = payloadEdits(inner);
    if (edits.length === 0) continue;
    const batchSize = pyGet(raw, "batch_size", 0);
    const support = Math.max(pyTruthy(batchSize) ? pyInt(batchSize) : 0, 1);
    const sourceType = pyGet(raw, "source_type", "failure");
    const normalised = {
      ...inner,
      edits: edits.map((edit) =>
        isPyDict(edit) ? withDefaults(edit, { source_type: sourceType, support_count: support }) : edit,
      ),
    };
    (sourceType === "success" ? success : failure).push(normalised);
  }
  return { failure, success };
}

/** Python `d.setdefault(k, v)` for each pair, on a copy. */
function withDefaults(dict: PyDict, defaults: PyDict): PyDict {
  const out: { [key: string]: PyJson } = { ...dict };
  for (const [key, value] of Object.entries(defaults)) if (!Object.hasOwn(out, key)) out[key] = value;
  return out;
}

export interface MergeBatchPlan {
  /** Index of the batch's first patch in the level. */
  start: number;
  patches: readonly PyJson[];
  /** A batch of one patch is carried to the next level as is, without a call. */
  passthrough: boolean;
}

/** One level of `_hierarchical_merge`: consecutive batches of max(2, mergeBatchSize) patches. */
export function planMergeLevel(patches: readonly PyJson[], mergeBatchSize: number): MergeBatchPlan[] {
  const size = Math.max(2, mergeBatchSize);
  const plan: MergeBatchPlan[] = [];
  for (let start = 0; start < patches.length; start += size) {
    const batch = patches.slice(start, start + size);
    plan.push({ start, patches: batch, passthrough: batch.length === 1 });
  }
  return plan;
}

/** What `_hierarchical_merge` returns without any call: no patches, or a single one. */
export function mergeTreeShortcut(patches: readonly PyJson[]): PyJson | undefined {
  if (patches.length === 0) return { reasoning: "no patches", edits: [] };
  if (patches.length === 1) return patches[0];
  return undefined;
}

/**
 * `_merge_batch`'s check of a parsed reply: usable when it is an object whose `edits` is a list of objects;
 * each edit then gets `merge_level`. null: upstream falls back to `mergeFallback`.
 */
export function acceptMergeReply(parsed: PyJson | undefined, level: number): PyDict | null {
  if (!isPyDict(parsed)) return null;
  const edits = pyGet(parsed, "edits", null);
  if (!Array.isArray(edits) || !edits.every((edit: PyJson) => isPyDict(edit))) return null;
  return { ...parsed, edits: (edits as PyDict[]).map((edit) => ({ ...edit, merge_level: level })) };
}

/**
 * `_merge_batch`'s fallback: every edit of the batch, in order, without de-duplicating, each given
 * `merge_level` unless it has one. A non-object edit makes upstream raise (AttributeError); so does this.
 */
export function mergeFallback(patches: readonly PyJson[], level: number): PyDict {
  const edits = patches.flatMap((patch) =>
    payloadEdits(patch).map((edit) => {
      if (!isPyDict(edit)) throw new TypeError("merge fallback: an edit is not an object (upstream raises here)");
      return withDefaults(edit, { merge_level: level });
    }),
  );
  return { reasoning: "fallback concatenation", edits };
}

/** The final combine without a call: when either tree produced no edits. undefined: the call is made. */
export function finalMergeShortcut(failureMerged: PyJson, successMerged: PyJson): PyJson | undefined {
  const failureEdits = payloadEdits(failureMerged);
  const successEdits = payloadEdits(successMerged);
  if (failureEdits.length === 0 && successEdits.length === 0) {
    return { reasoning: "no updates from either group", edits: [] };
  }
  if (successEdits.length === 0) return failureMerged;
  if (failureEdits.length === 0) return successMerged;
  return undefined;
}

/** The final combine's check of a parsed reply (no merge_level is added); null: use `finalMergeFallback`. */
export function acceptFinalMergeReply(parsed: PyJson | undefined): PyDict | null {
  if (!isPyDict(parsed)) return null;
  const edits = pyGet(parsed, "edits", null);
  return Array.isArray(edits) && edits.every((edit: PyJson) => isPyDict(edit)) ? parsed : null;
}

/** The final combine's fallback: failure edits first, then success edits. */
export function finalMergeFallback(failureMerged: PyJson, successMerged: PyJson): PyDict {
  return {
    reasoning: "fallback: failure first, then success",
    edits: [...payloadEdits(failureMerged), ...payloadEdits(successMerged)],
  };
}
