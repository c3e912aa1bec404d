import { z } from "zod";
import { addSkillVersion, type Db } from "@/lib/db";
import { decodeUtf8, NOT_UTF8_MESSAGE } from "@/lib/text/utf8";
import {
  MAX_SKILL_BYTES,
  MAX_SKILL_NAME_LENGTH,
  MAX_SKILL_NOTE_LENGTH,
  skillFileNameProblem,
  skillSizeProblem,
  type SkillUploadField,
  type UploadSkillResult,
} from "./skill-upload-rules";

const UploadSkillSchema = z.object({
  name: z
    .string({ error: "Give the skill a name." })
    .trim()
    .min(1, "Give the skill a name.")
    .max(MAX_SKILL_NAME_LENGTH, `A skill name can be at most ${MAX_SKILL_NAME_LENGTH} characters.`),
  note: z
    .string()
    .trim()
    .max(MAX_SKILL_NOTE_LENGTH, `A note can be at most ${MAX_SKILL_NOTE_LENGTH} characters.`)
    .optional(),
  // Not trimmed: the exact text is what gets hashed, stored and put into prompts.
  content: z
    .string({ error: "Paste the skill text or choose a file." })
    .refine((text) => text.trim() !== "", "The skill text is empty: paste it or choose a .md or .txt file.")
    .superRefine((text, ctx) => {
      const problem = skillSizeProblem("The skill text", Buffer.byteLength(text, "utf8"));
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  // The name of the file the text was read from, when it came from one; only its extension is checked.
  fileName: z
    .string()
    .optional()
    .superRefine((fileName, ctx) => {
      const problem = fileName ? skillFileNameProblem(fileName) : undefined;
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});

/**
 * FormData values as the schema expects them: missing fields and empty strings become undefined where
 * optional. The text may come as a string or as a Blob (the form sends a Blob: browsers turn line breaks
 * in text fields into CRLF, but send a Blob's bytes unchanged); a Blob too large to be a skill is not read, and one
 * that is not UTF-8 is refused (the check datasets use) rather than read with replacement characters.
 */
async function formFields(formData: FormData): Promise<Record<SkillUploadField, unknown> & { notUtf8?: true }> {
  const value = (key: SkillUploadField) => formData.get(key) ?? undefined;
  const optional = (key: SkillUploadField) => (value(key) === "" ? undefined : value(key));
  const fields = { name: value("name"), note: optional("note"), content: value("content"), fileName: optional("fileName") };
  if (!(fields.content instanceof Blob) || fields.content.size > MAX_SKILL_BYTES) return fields;
  const text = decodeUtf8(new Uint8Array(await fields.content.arrayBuffer()));
  return text === undefined ? { ...fields, notUtf8: true } : { ...fields, content: text };
}

function failure(fields: Partial<Record<SkillUploadField, string>>): UploadSkillResult {
  return { ok: false, error: `Nothing was stored. ${Object.values(fields).join(" ")}`, fields };
}

/**
 * The skill upload behind the form's server action: validates, then stores the text as a new version of
 * the named skill, unless the skill already has exactly this text (then nothing is stored, and the result says so).
 */
export async function uploadSkill(db: Db, formData: FormData): Promise<UploadSkillResult> {
  const fields = await formFields(formData);
  if (fields.notUtf8) {
    const what = typeof fields.fileName === "string" ? fields.fileName : "The skill text";
    return failure({ content: `${what} ${NOT_UTF8_MESSAGE}.` });
  }
  if (fields.content instanceof Blob) {
    return failure({ content: skillSizeProblem("The skill text", fields.content.size) ?? "The skill text could not be read." });
  }
  const parsed = UploadSkillSchema.safeParse(fields);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<SkillUploadField, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as SkillUploadField;
      fieldErrors[field] ??= issue.message;
    }
    return failure(fieldErrors);
  }
  const { name, note, content } = parsed.data;
  const { version, created } = await addSkillVersion(db, { name, content, note: note ?? null });
  const stored = { skillId: version.skillId, skillName: version.skillName, version: version.version };
  return created
    ? { ok: true, message: `Stored version ${version.version} of “${version.skillName}”.`, data: { outcome: "created", ...stored } }
    : { ok: true, message: `Unchanged: this text is already version ${version.version} of “${version.skillName}”.`, data: { outcome: "unchanged", ...stored } };
}
