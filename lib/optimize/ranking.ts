/**
 * Cutting the merged edits to the step's edit budget, ported from `rank_and_select` in
 * skillopt/optimizer/clip.py (patch mode; the reply schema is skillopt/prompts/ranking.md's
 * `{"selected_indices": [...]}`). The ranking prompt's text is built elsewhere (lib/optimize/prompts); this is
 * the decision around it: whether to ask at all, and what the reply (or its absence) turns into.
 *
 * Quirks copied from upstream, not fixed:
 * - An index is kept only if it is a Python int in range and not seen before. Booleans are ints (True is 1, and
 *   a True after a 1 counts as already seen); strings, floats (2.0) and negative numbers are dropped.
 * - The budget check runs after every index, kept or not; with a budget of 0 the first index still gets in when
 *   it is valid, and otherwise nothing does (then the fallback keeps edits[:0], i.e. none).
 * - Anything that makes Python raise inside the `try` (a reply that is a JSON array or string, `selected_indices`
 *   that is not iterable, a failed call, absurd nesting) silently falls back to truncation: the first `budget`
 *   edits in merge order.
 * - The reasoning is concatenated as `patch.get("reasoning", "") + " [...]"`: when the merged patch's reasoning
 *   is not a string, both the ranked branch and the fallback raise TypeError, and upstream crashes
 *   (UpstreamCrashError here).
 * - Within budget the patch is returned as is (the same object), even when `edits` is not a list.
 */
import type { PyJson } from "@/lib/export/python-json";
import { extractJson } from "./extract-json";
import { isPyDict, pyGet, pyTruthy, pyTypeName, UpstreamCrashError } from "./py-values";

type PyDict = { readonly [key: string]: PyJson };

/** `get_payload_items(patch, "patch")`: the edits list, or [] when the patch or its `edits` is not one. */
export function payloadEdits(patch: PyJson | undefined): readonly PyJson[] {
  if (!isPyDict(patch)) return [];
  const edits = pyGet(patch, "edits", []);
  return Array.isArray(edits) ? edits : [];
}

/** Whether upstream asks the optimizer to rank: only when there are more edits than the budget. */
export function needsRanking(patch: PyJson, maxEdits: number): boolean {
  return payloadEdits(patch).length > maxEdits;
}

/** Thrown inside the ported `try` block where Python would raise; it sends the reply to the fallback. */
class RankingRaised extends Error {}

/** Python's `"selected_indices" in result` for any parsed reply. */
function containsKey(result: PyJson, key: string): boolean {
  if (isPyDict(result)) return Object.hasOwn(result, key);
  if (Array.isArray(result)) return result.some((item) => item === key);
  if (typeof result === "string") return result.includes(key);
  throw new RankingRaised(`argument of type '${pyTypeName(result)}' is not iterable`);
}

/** What `for idx in indices` visits. */
function iterate(value: PyJson): readonly PyJson[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return Array.from(value);
  if (isPyDict(value)) return Object.keys(value);
  throw new RankingRaised(`'${pyTypeName(value)}' object is not iterable`);
}

/** The index an element stands for, when `isinstance(idx, int)`: ints, and booleans as 1 / 0. */
function asPyInt(value: PyJson): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/** `patch.get("reasoning", "") + suffix`, raising as Python does when the reasoning is not a str. */
function reasoningWith(patch: PyDict, suffix: string): string {
  const reasoning = pyGet(patch, "reasoning", "");
  if (typeof reasoning === "string") return reasoning + suffix;
  const message = Array.isArray(reasoning)
    ? 'can only concatenate list (not "str") to list'
    : `unsupported operand type(s) for +: '${pyTypeName(reasoning)}' and 'str'`;
  throw new UpstreamCrashError(`TypeError: ${message}`);
}

/** Python `items[:n]`. */
function pySliceTo<T>(items: readonly T[], n: number): T[] {
  return items.slice(0, n < 0 ? Math.max(0, items.length + n) : n);
}

/** The indices upstream keeps from a parsed reply, or undefined when its `if` does not take the reply. */
function selectedIndices(result: PyJson, editCount: number, maxEdits: number): number[] | undefined {
  if (!pyTruthy(result) || !containsKey(result, "selected_indices")) return undefined;
  if (!isPyDict(result)) throw new RankingRaised(`${pyTypeName(result)} indices must be integers`);
  const chosen: number[] = [];
  for (const element of iterate(pyGet(result, "selected_indices", null))) {
    const index = asPyInt(element);
    if (index !== undefined && index >= 0 && index < editCount && !chosen.includes(index)) chosen.push(index);
    if (chosen.length >= maxEdits) break;
  }
  return chosen;
}

/**
 * The patch `rank_and_select` returns for a ranking reply. `reply` is the optimizer's text, or undefined when
 * the call failed (upstream's `chat_optimizer` raised after its retries).
 */
export function rankAndSelect(patch: PyJson, maxEdits: number, reply: string | undefined): PyJson {
  const edits = payloadEdits(patch);
  if (edits.length <= maxEdits) return patch;
  if (!isPyDict(patch)) throw new Error("unreachable: a patch with edits is a dict");
  let result: PyJson = null;
  let chosen: number[] | undefined;
  try {
    if (reply === undefined) throw new RankingRaised("optimizer call failed");
    result = extractJson(reply);
    chosen = selectedIndices(result, edits.length, maxEdits);
  } catch (error) {
    if (!(error instanceof RankingRaised) && !(error instanceof UpstreamCrashError)) throw error;
    chosen = undefined; // upstream: except Exception: pass
  }
  if (chosen !== undefined && chosen.length > 0) {
    const suffix = ` [optimizer-ranked: selected ${chosen.length}/${edits.length} edits]`;
    const reasoning = tryReasoning(patch, suffix);
    if (reasoning !== undefined) {
      return { reasoning, edits: chosen.map((index) => edits[index]!), ranking_details: result };
    }
  }
  return {
    reasoning: reasoningWith(patch, ` [fallback truncated ${edits.length}->${maxEdits} edits]`),
    edits: pySliceTo(edits, maxEdits),
  };
}

/** The ranked branch's concatenation is inside upstream's `try`: a TypeError there means "fall back". */
function tryReasoning(patch: PyDict, suffix: string): string | undefined {
  try {
    return reasoningWith(patch, suffix);
  } catch (error) {
    if (error instanceof UpstreamCrashError) return undefined;
    throw error;
  }
}
