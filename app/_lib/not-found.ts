/**
 * The page side of the id rule: a page whose id is malformed or names no row shows Next's not-found page, as a
 * route handler would answer 400 or 404 (app/_lib/http.ts). Both read the id with app/_lib/ids.ts.
 */
import { notFound } from "next/navigation";
import { NotFoundError } from "@/lib/db";
import { parseIdParam } from "./ids";

/** The id in a page's path segment, or the not-found page. */
export function idOrNotFound(segment: string): number {
  const id = parseIdParam(segment);
  if (id === undefined) notFound();
  return id;
}

/** What a lookup found, or the not-found page when it threw NotFoundError. */
export async function foundOrNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}
