/** Parsing of dynamic route segments and query strings shared by the skills and datasets pages. */
import { z } from "zod";

export type SearchParams = Record<string, string | string[] | undefined>;

const PositiveInt = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A database id or page number from a path segment or query value; undefined when it is not one. */
export function parsePositiveInt(value: string | string[] | undefined): number | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || !/^\d+$/.test(first)) return undefined;
  const parsed = PositiveInt.safeParse(first);
  return parsed.success ? parsed.data : undefined;
}

/** The first value of a query parameter, if any. */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
