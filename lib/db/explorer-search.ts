import { Prisma } from "../../generated/prisma/client";
import type { Db } from "./client";

/**
 * The item explorer's search: a case-insensitive substring match over question, gold answers, predicted answer and
 * response. Terms of 3+ characters use the contentless FTS5 trigram table "RunResultSearch" (rowid = RunResult.id,
 * created by migration 20261130010000_item_explorer); a scan with LIKE over 100,000 long responses takes longer than
 * the page's whole budget. Trigram cannot match fewer than 3 characters, so shorter terms fall back to LIKE.
 */
export const MIN_FULLTEXT_CHARS = 3;

export type SearchMode = "fulltext" | "scan";

export function searchModeOf(term: string): SearchMode {
  return Array.from(term).length >= MIN_FULLTEXT_CHARS ? "fulltext" : "scan";
}

/** Removes the run's results with these statuses from the search index; call before deleting the rows themselves. */
export function unindexResultsByStatus(tx: Pick<Db, "$executeRaw">, runId: number, statuses: readonly string[]) {
  return tx.$executeRaw`
    DELETE FROM "RunResultSearch"
    WHERE rowid IN (SELECT id FROM "RunResult" WHERE runId = ${runId} AND status IN (${Prisma.join([...statuses])}))`;
}

/** A WHERE condition on "RunResult" that keeps the rows containing `term` (already trimmed, non-empty). */
export function searchCondition(term: string): Prisma.Sql {
  if (searchModeOf(term) === "fulltext") {
    return Prisma.sql`"RunResult".id IN (SELECT rowid FROM "RunResultSearch" WHERE "RunResultSearch" MATCH ${ftsPhrase(term)})`;
  }
  const pattern = `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return Prisma.sql`(question LIKE ${pattern} ESCAPE '\\' OR goldAnswersJson LIKE ${pattern} ESCAPE '\\'
    OR predictedAnswer LIKE ${pattern} ESCAPE '\\' OR response LIKE ${pattern} ESCAPE '\\')`;
}

/**
 * The term as one FTS5 phrase: with the trigram tokenizer a phrase matches exactly where the text contains it as a
 * substring. Inside a phrase only the double quote is special, and it is escaped by doubling it.
 */
export function ftsPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}
