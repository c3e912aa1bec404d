import { Prisma } from "../../generated/prisma/client";
import type { DatabaseEngine } from "./database-url";

/**
 * The item explorer's search: a case-insensitive substring match over question, gold answers, predicted answer and
 * response; a scan with LIKE over 100,000 long responses takes longer than the page's whole budget, so terms of 3+
 * characters use a trigram index. The two engines' indexes:
 * - SQLite: the contentless FTS5 trigram table "RunResultSearch" (rowid = RunResult.id, created by migration
 *   20261130010000_item_explorer; gold answers indexed one per line), filled before each search and in the background
 *   (search-index.ts), emptied by a delete trigger. Trigram cannot match fewer than 3 characters, so shorter terms
 *   fall back to LIKE.
 * - PostgreSQL: pg_trgm GIN indexes on the four columns (prisma/postgresql), which ILIKE uses for any term.
 */
export const MIN_FULLTEXT_CHARS = 3;

export type SearchMode = "fulltext" | "scan";

export function searchModeOf(term: string): SearchMode {
  return Array.from(term).length >= MIN_FULLTEXT_CHARS ? "fulltext" : "scan";
}

/** A WHERE condition on "RunResult" that keeps the rows containing `term` (already trimmed, non-empty). */
export function searchCondition(engine: DatabaseEngine, term: string): Prisma.Sql {
  const pattern = `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  if (engine === "postgresql") {
    return Prisma.sql`("question" ILIKE ${pattern} OR "goldAnswersJson" ILIKE ${pattern} OR "predictedAnswer" ILIKE ${pattern} OR "response" ILIKE ${pattern})`;
  }
  if (searchModeOf(term) === "fulltext") {
    return Prisma.sql`"RunResult"."id" IN (SELECT rowid FROM "RunResultSearch" WHERE "RunResultSearch" MATCH ${ftsPhrase(term)})`;
  }
  return Prisma.sql`("question" LIKE ${pattern} ESCAPE '\\' OR "goldAnswersJson" LIKE ${pattern} ESCAPE '\\'
    OR "predictedAnswer" LIKE ${pattern} ESCAPE '\\' OR "response" LIKE ${pattern} ESCAPE '\\')`;
}

/**
 * The term as one FTS5 phrase: with the trigram tokenizer a phrase matches exactly where the text contains it as a
 * substring. Inside a phrase only the double quote is special, and it is escaped by doubling it.
 */
export function ftsPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}
