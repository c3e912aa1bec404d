/**
 * Applying a patch's edits to a skill document, ported from skillopt/optimizer/skill.py
 * (`_apply_edit_with_report`, `apply_patch_with_report`), with the per-edit report upstream writes.
 *
 * Semantics copied exactly, quirks included:
 * - Ops: `append` (at the end, or before the earliest protected region), `insert_after` (after the line holding
 *   the first occurrence of the target; a missing target falls back to append), `replace` and `delete` (first
 *   occurrence only). Any other op is `skipped_unknown_op`.
 * - An edit whose target's FIRST occurrence lies in a protected region (slow-update or appendix markers) is
 *   skipped, whatever its op, even `append`. Region bounds are the first start marker and the first end marker
 *   found from the top of the document, even if the end marker comes first (then the region is empty).
 * - Content is `.strip()`ped and any protected-region marker is removed from it.
 * - Previews keep the first 200 code points of target and content.
 * - An edit that makes Python raise (an edit that is not an object, content that is not a string, a target of
 *   the wrong type) gets status `error` with Python's message, and the next edit goes on, as upstream's
 *   `except Exception` does. A patch that is not an object, or whose `edits` is not iterable, crashes upstream:
 *   that is an UpstreamCrashError here.
 * - Edits apply in order, each to the result of the previous one; report indices are 1-based.
 */
import type { PyJson } from "@/lib/export/python-json";
import { codePointSlice, pyRstrip, pyStrip } from "@/lib/text/python";
import { isPyDict, pyGet, pyTruthy, pyTypeName, UpstreamCrashError } from "./py-values";

export const SLOW_UPDATE_START = "<!-- SLOW_UPDATE_START -->";
export const SLOW_UPDATE_END = "<!-- SLOW_UPDATE_END -->";
export const APPENDIX_START = "<!-- APPENDIX_START -->";
export const APPENDIX_END = "<!-- APPENDIX_END -->";

const PROTECTED_REGIONS: readonly (readonly [string, string])[] = [
  [SLOW_UPDATE_START, SLOW_UPDATE_END],
  [APPENDIX_START, APPENDIX_END],
];

export type EditStatus =
  | "skipped_protected_region"
  | "applied_append_before_protected_region"
  | "applied_append"
  | "applied_insert_after_fallback_before_protected_region"
  | "applied_insert_after_fallback_append"
  | "applied_insert_after"
  | "skipped_replace_missing_target"
  | "skipped_replace_target_not_found"
  | "applied_replace"
  | "skipped_delete_missing_target"
  | "skipped_delete_target_not_found"
  | "applied_delete"
  | "skipped_unknown_op";

/** One entry of upstream's `apply_report`, keys in upstream's order (they are written to JSON as is). */
export type EditReport =
  | { op: PyJson; target: PyJson; content_preview: string; status: EditStatus; index: number }
  | { index: number; op: ""; target: ""; content_preview: ""; status: "error"; error: string };

/** A Python exception raised while applying one edit (caught by upstream; becomes status "error"). */
class EditRaised extends Error {}

/** Index of the earliest protected-region start marker, or -1. */
function earliestProtectedStart(skill: string): number {
  const positions = PROTECTED_REGIONS.map(([start]) => skill.indexOf(start)).filter((index) => index !== -1);
  return positions.length > 0 ? Math.min(...positions) : -1;
}

/** `_is_in_protected_region` for a non-empty string target. */
export function isInProtectedRegion(skill: string, target: string): boolean {
  const targetIndex = skill.indexOf(target);
  if (targetIndex === -1) return false;
  return PROTECTED_REGIONS.some(([startMarker, endMarker]) => {
    const start = skill.indexOf(startMarker);
    const end = skill.indexOf(endMarker);
    if (start === -1 || end === -1) return false;
    return start <= targetIndex && targetIndex < end + endMarker.length;
  });
}

function stripMarkers(text: string): string {
  return text
    .replaceAll(SLOW_UPDATE_START, "")
    .replaceAll(SLOW_UPDATE_END, "")
    .replaceAll(APPENDIX_START, "")
    .replaceAll(APPENDIX_END, "");
}

/** Python `value[:200]` for a target of any JSON type. */
function preview(value: PyJson): PyJson {
  if (typeof value === "string") return codePointSlice(value, 0, 200);
  if (Array.isArray(value)) return value.slice(0, 200);
  if (isPyDict(value)) throw new EditRaised("unhashable type: 'slice'");
  throw new EditRaised(`'${pyTypeName(value)}' object is not subscriptable`);
}

/** Python `str.replace(old, new, 1)` for a non-empty `old` that occurs. */
function replaceFirst(skill: string, target: string, replacement: string): string {
  const at = skill.indexOf(target);
  return skill.slice(0, at) + replacement + skill.slice(at + target.length);
}

/** `before.rstrip() + "\n\n" + content + "\n\n" + after`, around the earliest protected region, or the end. */
function appendContent(skill: string, content: string): { skill: string; beforeProtected: boolean } {
  const protectedStart = earliestProtectedStart(skill);
  if (protectedStart !== -1) {
    const before = pyRstrip(skill.slice(0, protectedStart));
    return { skill: `${before}\n\n${content}\n\n${skill.slice(protectedStart)}`, beforeProtected: true };
  }
  return { skill: `${pyRstrip(skill)}\n\n${content}\n`, beforeProtected: false };
}

function applyOne(skill: string, edit: PyJson, index: number): [string, EditReport] {
  if (!isPyDict(edit)) throw new EditRaised(`'${pyTypeName(edit)}' object has no attribute 'get'`);
  const op = pyGet(edit, "op", "");
  const rawContent = pyGet(edit, "content", "");
  if (typeof rawContent !== "string") throw new EditRaised(`'${pyTypeName(rawContent)}' object has no attribute 'strip'`);
  const content = stripMarkers(pyStrip(rawContent));
  const target = pyGet(edit, "target", "");
  const targetPreview = preview(target);
  const report = (status: EditStatus): EditReport => ({
    op,
    target: targetPreview,
    content_preview: codePointSlice(content, 0, 200),
    status,
    index,
  });
  if (pyTruthy(target) && typeof target !== "string") throw new EditRaised(`must be str, not ${pyTypeName(target)}`);
  // From here a truthy target is a non-empty string; a falsy one is "" or [] and counts as missing.
  const text = typeof target === "string" ? target : "";
  if (text && isInProtectedRegion(skill, text)) return [skill, report("skipped_protected_region")];

  if (op === "append") {
    const appended = appendContent(skill, content);
    return [appended.skill, report(appended.beforeProtected ? "applied_append_before_protected_region" : "applied_append")];
  }
  if (op === "insert_after") {
    if (!text || !skill.includes(text)) {
      const appended = appendContent(skill, content);
      const status = appended.beforeProtected
        ? "applied_insert_after_fallback_before_protected_region"
        : "applied_insert_after_fallback_append";
      return [appended.skill, report(status)];
    }
    const end = skill.indexOf(text) + text.length;
    const newline = skill.indexOf("\n", end);
    const insertAt = newline !== -1 ? newline + 1 : skill.length;
    return [`${skill.slice(0, insertAt)}\n${content}\n${skill.slice(insertAt)}`, report("applied_insert_after")];
  }
  if (op === "replace" || op === "delete") {
    if (!text) return [skill, report(`skipped_${op}_missing_target`)];
    if (!skill.includes(text)) return [skill, report(`skipped_${op}_target_not_found`)];
    return [replaceFirst(skill, text, op === "replace" ? content : ""), report(`applied_${op}`)];
  }
  return [skill, report("skipped_unknown_op")];
}

/** What Python's `for edit in edits` iterates: list items, a str's characters, a dict's keys. */
function iterateEdits(edits: PyJson): readonly PyJson[] {
  if (Array.isArray(edits)) return edits;
  if (typeof edits === "string") return Array.from(edits);
  if (isPyDict(edits)) return Object.keys(edits);
  throw new UpstreamCrashError(`TypeError: '${pyTypeName(edits)}' object is not iterable`);
}

/** `apply_patch_with_report(skill, patch)`: the new skill and one report per edit. */
export function applyPatchWithReport(skill: string, patch: PyJson): { skill: string; reports: EditReport[] } {
  if (!isPyDict(patch)) throw new UpstreamCrashError(`AttributeError: '${pyTypeName(patch)}' object has no attribute 'get'`);
  const edits = iterateEdits(pyGet(patch, "edits", []));
  const reports: EditReport[] = [];
  let current = skill;
  edits.forEach((edit, position) => {
    const index = position + 1;
    try {
      const [next, report] = applyOne(current, edit, index);
      current = next;
      reports.push(report);
    } catch (error) {
      if (!(error instanceof EditRaised)) throw error;
      reports.push({ index, op: "", target: "", content_preview: "", status: "error", error: error.message });
    }
  });
  return { skill: current, reports };
}
