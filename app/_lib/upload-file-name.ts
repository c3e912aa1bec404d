import { z } from "zod";

/**
 * The `fileName` query field of the streamed upload routes (datasets, SkillOpt zips): required, trimmed, at most 255
 * characters, and accepted by the route's own rule (`problemOf`: a message, or undefined for a name it takes).
 */
export function uploadFileNameSchema(problemOf: (fileName: string) => string | undefined) {
  return z
    .string({ error: "fileName is required" })
    .trim()
    .min(1, "fileName is required")
    .max(255, "fileName can be at most 255 characters")
    .superRefine((fileName, ctx) => {
      const problem = problemOf(fileName);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}
