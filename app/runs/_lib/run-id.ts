import { z } from "zod";

/**
 * A run id as it arrives in a URL segment or a form field: digits only, so "12abc", "1e3" or "-1"
 * are rejected rather than coerced into some other run.
 */
export const RunIdSchema = z
  .string({ error: "run id is required" })
  .trim()
  .regex(/^\d{1,15}$/, "run id must be a positive whole number")
  .transform(Number)
  .refine((id) => id > 0, "run id must be a positive whole number");

/** The same for any other row id posted by a form (dataset, skill version). */
export function rowIdSchema(label: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `Choose a ${label.toLowerCase()}` : `${label} must be an id`) })
    .trim()
    .min(1, `Choose a ${label.toLowerCase()}`)
    .regex(/^\d{1,15}$/, `${label} must be an id`)
    .transform(Number);
}
