/**
 * What the loop keeps of each optimizer reply, with upstream's rules: `run_error_analyst_minibatch` /
 * `run_success_analyst_minibatch` (skillopt/gradient/reflect.py), `run_slow_update` (optimizer/slow_update.py) and
 * `run_meta_skill` (optimizer/meta_skill.py). A reply upstream would fail on (its `except Exception`) gives null.
 */
import { isPyDict, type PyJson, pyJsonStr, pyTruthy } from "../../export/python-json";
import { pyStrip } from "../../text/python";
import { extractJson } from "../extract-json";
import { UpstreamCrashError } from "../py-values";

type PyDict = { readonly [key: string]: PyJson };

function parsed(reply: string | undefined): PyJson | null {
  if (reply === undefined) return null;
  try {
    return extractJson(reply);
  } catch (error) {
    if (error instanceof UpstreamCrashError) return null;
    throw error;
  }
}

/**
 * The analyst's patch: the reply's object when it has a "patch" key, given `source_type`, its patch's edits cut to
 * the edit budget (`truncate_payload`). Null when upstream returns None (no JSON, a falsy value, no "patch").
 */
export function parseAnalystReply(reply: string | undefined, kind: "failure" | "success", editBudget: number): PyDict | null {
  const result = parsed(reply);
  if (!pyTruthy(result ?? null) || !isPyDict(result ?? undefined) || !Object.hasOwn(result as PyDict, "patch")) return null;
  const dict = result as PyDict;
  let patch = dict.patch!;
  if (isPyDict(patch) && Array.isArray(patch.edits) && editBudget >= 0 && (patch.edits as PyJson[]).length > editBudget) {
    patch = { ...patch, edits: (patch.edits as PyJson[]).slice(0, editBudget) };
  }
  return { ...dict, source_type: kind, patch };
}

/** `{reasoning, <field>}` when the reply's object has a truthy field, both str()-ed and stripped; else null. */
function contentReply(reply: string | undefined, field: string): { reasoning: string; content: string } | null {
  const result = parsed(reply);
  if (!isPyDict(result ?? undefined)) return null;
  const dict = result as PyDict;
  if (!pyTruthy(dict[field])) return null;
  return { reasoning: pyStrip(pyJsonStr(dict.reasoning ?? "")), content: pyStrip(pyJsonStr(dict[field]!)) };
}

export function parseSlowUpdateReply(reply: string | undefined): { reasoning: string; content: string } | null {
  return contentReply(reply, "slow_update_content");
}

export function parseMetaSkillReply(reply: string | undefined): { reasoning: string; content: string } | null {
  return contentReply(reply, "meta_skill_content");
}
