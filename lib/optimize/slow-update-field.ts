/**
 * The skill's protected slow-update field, ported from skillopt/optimizer/slow_update.py (`inject_empty_slow_update_field`,
 * `extract_slow_update_field`, `replace_slow_update_field`). Only the epoch-end slow update writes inside it; step
 * edits that target it are skipped (edits.ts).
 */
import { pyRstrip, pyStrip } from "../text/python";
import { SLOW_UPDATE_END, SLOW_UPDATE_START } from "./edits";

export function hasSlowUpdateField(skill: string): boolean {
  return skill.includes(SLOW_UPDATE_START) && skill.includes(SLOW_UPDATE_END);
}

/** Epoch 1's empty placeholder, appended after the skill's trailing whitespace is cut. */
export function injectEmptySlowUpdateField(skill: string): string {
  if (hasSlowUpdateField(skill)) return skill;
  return `${pyRstrip(skill)}\n\n${SLOW_UPDATE_START}\n${SLOW_UPDATE_END}\n`;
}

/** The guidance between the first start and the first end marker, stripped ("" without both markers). */
export function extractSlowUpdateField(skill: string): string {
  const start = skill.indexOf(SLOW_UPDATE_START);
  const end = skill.indexOf(SLOW_UPDATE_END);
  if (start === -1 || end === -1) return "";
  return pyStrip(skill.slice(start + SLOW_UPDATE_START.length, end));
}

function stripAllSlowUpdateFields(input: string): string {
  let skill = input;
  for (;;) {
    const start = skill.indexOf(SLOW_UPDATE_START);
    if (start === -1) break;
    const end = skill.indexOf(SLOW_UPDATE_END, start);
    if (end === -1) {
      skill = skill.slice(0, start) + skill.slice(start + SLOW_UPDATE_START.length);
      break;
    }
    skill = skill.slice(0, start) + skill.slice(end + SLOW_UPDATE_END.length);
  }
  skill = skill.replaceAll(SLOW_UPDATE_END, "");
  while (skill.includes("\n\n\n")) skill = skill.replaceAll("\n\n\n", "\n\n");
  return pyRstrip(skill);
}

/** Every slow-update region removed, then exactly one appended with `content` (stripped). */
export function replaceSlowUpdateField(skill: string, content: string): string {
  return `${stripAllSlowUpdateFields(skill)}\n\n${SLOW_UPDATE_START}\n${pyStrip(content)}\n${SLOW_UPDATE_END}\n`;
}
