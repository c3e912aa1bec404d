/**
 * The one rule for a row id (run, dataset, skill, skill version) as it arrives in a URL segment, a query value or a
 * form field: digits only, at most 15 of them (below Number.MAX_SAFE_INTEGER), and not 0. So "12abc", "1e3", "-1" or
 * "1.5" are refused rather than coerced into some other row. Route handlers answer a malformed id with 400 and an
 * unknown one with 404 (app/_lib/http.ts); pages answer both with notFound() (app/_lib/not-found.ts).
 */
import { z } from "zod";

const ID_DIGITS = /^\d{1,15}$/;

interface IdMessages {
  /** When there is no value at all. */
  missing?: string;
  /** When there is one, but it is not an id. */
  malformed?: string;
}

/** `what` names the id in its messages: idSchema("run id") → "run id must be a positive whole number". */
export function idSchema(what: string, messages: IdMessages = {}) {
  const missing = messages.missing ?? `${what} is required`;
  const malformed = messages.malformed ?? `${what} must be a positive whole number`;
  return z
    .string({ error: (issue) => (issue.input === undefined ? missing : malformed) })
    .trim()
    .regex(ID_DIGITS, malformed)
    .transform(Number)
    .refine((id) => id > 0, malformed);
}

/**
 * A row chosen in a form's select: an empty choice reads "Choose a dataset", anything else that is not an id
 * "Dataset must be an id".
 */
export function chosenIdSchema(label: string) {
  const missing = `Choose a ${label.toLowerCase()}`;
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    idSchema(label, { missing, malformed: `${label} must be an id` }),
  );
}

export const RunIdSchema = idSchema("run id");
export const DatasetIdSchema = idSchema("dataset id");
export const SkillIdSchema = idSchema("skill id");
export const SkillVersionIdSchema = idSchema("skill version id");

/** The path parameters of /api/runs/[id]/… */
export const RunParamsSchema = z.object({ id: RunIdSchema });
/** The path parameters of /api/datasets/[id]/… */
export const DatasetParamsSchema = z.object({ id: DatasetIdSchema });

/**
 * An id (or a page number, which follows the same rule) from a page's path segment or query value, for pages that
 * treat anything else as absent; undefined when it is not one. A repeated query parameter counts by its first value.
 */
export function parseIdParam(value: string | string[] | undefined): number | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const parsed = idSchema("id").safeParse(first);
  return parsed.success ? parsed.data : undefined;
}

export const OptimizationIdSchema = idSchema("optimization id");
/** The path parameters of /api/optimizations/[id]/… */
export const OptimizationParamsSchema = z.object({ id: OptimizationIdSchema });
