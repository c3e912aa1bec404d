-- The item explorer's search index (the FTS5 table "RunResultSearch", rowid = RunResult.id) follows the result rows by
-- itself, as PostgreSQL's trigram indexes do: the writers no longer index and unindex rows (lib/db/explorer-search.ts).
-- Gold answers are indexed one per line, not as JSON (as the backfill in 20261130010000_item_explorer did).
CREATE TRIGGER "RunResult_search_insert" AFTER INSERT ON "RunResult" BEGIN
  INSERT INTO "RunResultSearch" (rowid, question, gold, predicted, response)
  VALUES (new."id", new."question", (SELECT group_concat(value, char(10)) FROM json_each(new."goldAnswersJson")), new."predictedAnswer", new."response");
END;

-- Also when a run is deleted (the cascade deletes its results): before, their index rows stayed behind.
CREATE TRIGGER "RunResult_search_delete" AFTER DELETE ON "RunResult" BEGIN
  DELETE FROM "RunResultSearch" WHERE rowid = old."id";
END;

-- Index rows of results deleted before this migration.
DELETE FROM "RunResultSearch" WHERE rowid NOT IN (SELECT "id" FROM "RunResult");
