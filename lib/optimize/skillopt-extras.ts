/**
 * skillboard.json, Skillboard's own file in a SkillOpt output directory (upstream never reads it): what SkillOpt's layout
 * has no place for, so that `optimize import` of an exported optimisation shows what the original showed. Per stage:
 * its Skillboard fields (action, approval, budget, batch item ids, loop state, gate) and its ranked edits with their
 * apply status and proposers; the baseline and final records; every optimizer call with its prompt and reply; the
 * target and optimizer model settings (stored without secrets) and the spend. Written by skillopt-export.ts, checked and
 * read back here for skillopt-import.ts.
 */
import type { OptimizationEditRecord, OptimizerCallRecord } from "../db";
import { isPyDict, PyFloat, type PyJson } from "../export/python-json";
import { pyJsonLoads } from "./py-json";

type Dict = Record<string, PyJson>;
type ReadDict = { readonly [key: string]: PyJson };

export const SKILLBOARD_FILE = "skillboard.json";
export const SKILLBOARD_FORMAT = "skillboard/skillopt-export";

export type ExportEdit = Omit<OptimizationEditRecord, "id" | "stepId">;
export type ExportCall = Pick<OptimizerCallRecord, "key" | "stepKey" | "stage" | "minibatch" | "mergeLevel" | "itemIdsJson" | "inputKeysJson" | "system" | "user" | "reply" | "parsedJson" | "error" | "promptTokens" | "completionTokens" | "latencyMs" | "attempts">;

const loads = (text: string) => pyJsonLoads(text);

export function editToJson(edit: ExportEdit): Dict {
  return {
    ordinal: edit.ordinal, op: edit.op, target: edit.target, content: edit.content, support_count: edit.supportCount, source_type: edit.sourceType,
    apply_status: edit.applyStatus, apply_detail: edit.applyDetail, proposed_by: loads(edit.proposedByJson),
  };
}

export function callToJson(call: ExportCall): Dict {
  return {
    key: call.key, step_key: call.stepKey, stage: call.stage, minibatch: call.minibatch, merge_level: call.mergeLevel, item_ids: loads(call.itemIdsJson), input_keys: loads(call.inputKeysJson),
    system: call.system, user: call.user, reply: call.reply, parsed: call.parsedJson, error: call.error,
    prompt_tokens: call.promptTokens, completion_tokens: call.completionTokens, latency_ms: new PyFloat(call.latencyMs), attempts: call.attempts,
  };
}

/** Thrown with the field's path; skillopt-read.ts names the file. */
export class ExtrasFieldError extends Error {}

const num = (value: PyJson | undefined): number | null => (typeof value === "number" ? value : value instanceof PyFloat ? value.value : null);
const str = (value: PyJson | undefined): string | null => (typeof value === "string" ? value : null);

function need<T>(path: string, value: T | null, expected: string): T {
  if (value === null) throw new ExtrasFieldError(`${path}: expected ${expected}`);
  return value;
}

/** A stage's `edits` list as edit rows (an absent list: none). */
export function editsFromJson(path: string, value: PyJson | undefined): ExportEdit[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ExtrasFieldError(`${path}: expected a list`);
  return (value as PyJson[]).map((entry, index) => {
    const at = `${path}[${index}]`;
    if (!isPyDict(entry)) throw new ExtrasFieldError(`${at}: expected an object`);
    return {
      ordinal: need(`${at}.ordinal`, num(entry.ordinal), "an integer"),
      op: need(`${at}.op`, str(entry.op), "a string"),
      target: str(entry.target) ?? "",
      content: need(`${at}.content`, str(entry.content), "a string"),
      supportCount: num(entry.support_count),
      sourceType: str(entry.source_type),
      applyStatus: need(`${at}.apply_status`, str(entry.apply_status), "a string"),
      applyDetail: str(entry.apply_detail),
      proposedByJson: JSON.stringify(toPlain(entry.proposed_by ?? [])),
    };
  });
}

/** The top-level `calls` list as call rows, or null when the file has none (an export from before calls were written). */
export function callsFromJson(path: string, value: PyJson | undefined): ExportCall[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new ExtrasFieldError(`${path}: expected a list`);
  return (value as PyJson[]).map((entry, index) => {
    const at = `${path}[${index}]`;
    if (!isPyDict(entry)) throw new ExtrasFieldError(`${at}: expected an object`);
    return {
      key: need(`${at}.key`, str(entry.key), "a string"),
      stepKey: need(`${at}.step_key`, str(entry.step_key), "a string"),
      stage: need(`${at}.stage`, str(entry.stage), "a string"),
      minibatch: num(entry.minibatch),
      mergeLevel: num(entry.merge_level),
      itemIdsJson: JSON.stringify(toPlain(entry.item_ids ?? [])),
      inputKeysJson: JSON.stringify(toPlain(entry.input_keys ?? [])),
      system: str(entry.system) ?? "",
      user: str(entry.user) ?? "",
      reply: str(entry.reply),
      parsedJson: str(entry.parsed),
      error: str(entry.error),
      promptTokens: num(entry.prompt_tokens) ?? 0,
      completionTokens: num(entry.completion_tokens) ?? 0,
      latencyMs: num(entry.latency_ms) ?? 0,
      attempts: num(entry.attempts) ?? 0,
    };
  });
}

/** An object field kept as JSON text (model settings), or null when absent. */
export function jsonFieldOf(extras: ReadDict | null, key: string): string | null {
  const value = extras?.[key];
  return value !== undefined && value !== null && isPyDict(value) ? JSON.stringify(toPlain(value)) : null;
}

/** A number field of an object field (the spend), or null. */
export function numberIn(extras: ReadDict | null, key: string, field: string): number | null {
  const value = extras?.[key];
  return value !== undefined && value !== null && isPyDict(value) ? num(value[field]) : null;
}

/** PyJson as plain JSON values (floats as numbers). */
function toPlain(value: PyJson): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return (value as PyJson[]).map(toPlain);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toPlain(inner as PyJson)]));
  return value;
}
