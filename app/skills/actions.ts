"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { isRequestAuthorized } from "@/lib/auth/request-auth";
import { getDb } from "@/lib/db";
import type { UploadSkillState } from "./skill-upload-rules";
import { uploadSkill } from "./upload-skill";

/**
 * The upload form's action (for useActionState). The form data is validated by the zod schema in
 * ./upload-skill, declared just above the function that stores the version.
 */
export async function uploadSkillAction(_previous: UploadSkillState, formData: FormData): Promise<UploadSkillState> {
  // The proxy already checks; an action is a public POST endpoint, so it checks for itself too.
  if (!isRequestAuthorized(await headers())) {
    return { status: "error", message: "Sign in again: your session has expired.", fieldErrors: {} };
  }
  const state = await uploadSkill(getDb(), formData);
  if (state.status === "created") {
    revalidatePath("/skills");
    revalidatePath(`/skills/${state.skillId}`);
  }
  return state;
}
