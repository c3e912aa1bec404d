/**
 * What a skill upload may be, shared by the form (to refuse a file before reading it) and the server
 * (which decides). Pure: imported by a client component.
 */
import type { ActionResult } from "../_lib/action-result";
import { formatBytes } from "@/app/_lib/format";
import { extensionOf } from "@/app/_lib/file-name";

/** A skill document is part of every prompt; anything near this size is a mistake (a dataset, a binary). */
export const MAX_SKILL_BYTES = 1024 * 1024;
export const SKILL_EXTENSIONS = [".md", ".txt"] as const;
export const MAX_SKILL_NAME_LENGTH = 200;
export const MAX_SKILL_NOTE_LENGTH = 1000;

export function skillFileNameProblem(fileName: string): string | undefined {
  const extension = extensionOf(fileName);
  if ((SKILL_EXTENSIONS as readonly string[]).includes(extension)) return undefined;
  return `${fileName} is not a skill document: choose a .md or .txt file.`;
}

export function skillSizeProblem(what: string, bytes: number): string | undefined {
  if (bytes <= MAX_SKILL_BYTES) return undefined;
  return `${what} is ${formatBytes(bytes)}; a skill document can be at most ${formatBytes(MAX_SKILL_BYTES)}.`;
}

export type SkillUploadField = "name" | "note" | "content" | "fileName";

/** The version an upload stored, or already had ("unchanged": the skill has exactly this text). */
export interface UploadedSkillVersion {
  outcome: "created" | "unchanged";
  skillId: number;
  skillName: string;
  version: number;
}

/** What the upload form shows after a submission (the server action's return value). */
export type UploadSkillResult = ActionResult<UploadedSkillVersion, SkillUploadField>;
