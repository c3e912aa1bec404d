-- The search index is no longer filled by a trigger inside every result write (0.06–0.1 ms of CPU per stored
-- result): lib/db/search-index.ts indexes the results past the index's highest rowid before a search, and the
-- dashboard's worker process does so in the background. Deleting results still unindexes them (the delete trigger).
DROP TRIGGER IF EXISTS "RunResult_search_insert";
