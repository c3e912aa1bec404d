"use server";

import { revalidatePath } from "next/cache";
import { guardedAction } from "@/app/_lib/guarded-action";
import { getDb } from "@/lib/db";
import type { UploadSkillResult } from "./skill-upload-rules";
import { uploadSkill } from "./upload-skill";

/**
 * The upload form's action (for useActionState), behind the access check every action has. The form data is
 * validated by the zod schema in ./upload-skill, declared just above the function that stores the version.
 */
export const uploadSkillAction = guardedAction(async (_previous: UploadSkillResult | null, formData: FormData): Promise<UploadSkillResult> => {
  const result = await uploadSkill(getDb(), formData);
  if (result.ok && result.data.outcome === "created") {
    revalidatePath("/skills");
    revalidatePath(`/skills/${result.data.skillId}`);
  }
  return result;
});
