"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionFailure, type ActionResult } from "@/app/_lib/action-result";
import { guardedAction } from "@/app/_lib/guarded-action";
import { getDb } from "@/lib/db";
import { importSkillOptZip, SkillOptZipError } from "@/lib/optimize/skillopt-zip";
import { MAX_IMPORT_NAME_LENGTH, zipFileProblem } from "./_lib/import-rules";

const ImportZipSchema = z.object({
  file: z.instanceof(File, { error: "Choose the .zip of a SkillOpt output directory." }).superRefine((file, ctx) => {
    const problem = zipFileProblem(file.name, file.size);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  name: z.string().trim().max(MAX_IMPORT_NAME_LENGTH, `The skill name can be at most ${MAX_IMPORT_NAME_LENGTH} characters.`).optional(),
});

/**
 * The Optimise list's "Import SkillOpt output" form: the zip of a SkillOpt output directory becomes an imported,
 * browsable optimisation (lib/optimize/skillopt-zip.ts, then the same import as `optimize import DIR`). An error names
 * the zip and the file in it; nothing is stored then.
 */
export const importSkillOptZipAction = guardedAction(async (_previous: ActionResult<{ id: number }> | null, formData: FormData): Promise<ActionResult<{ id: number }>> => {
  const input = ImportZipSchema.safeParse({ file: formData.get("file") ?? undefined, name: formData.get("name") || undefined });
  if (!input.success) return { ok: false, error: `Nothing was imported. ${input.error.issues[0]?.message ?? "invalid input"}` };
  const { file, name } = input.data;
  try {
    const imported = await importSkillOptZip(getDb(), Buffer.from(await file.arrayBuffer()), file.name, { name });
    revalidatePath("/optimize");
    const notices = imported.notices.length > 0 ? ` (${imported.notices.join("; ")})` : "";
    return { ok: true, message: `Imported ${file.name} as optimisation #${imported.id}: ${imported.stages} stages, ${imported.versions} new versions of ${imported.skillName}${notices}.`, data: { id: imported.id } };
  } catch (error) {
    if (error instanceof SkillOptZipError) return { ok: false, error: `Nothing was imported. ${error.message}` };
    return actionFailure(error);
  }
});
