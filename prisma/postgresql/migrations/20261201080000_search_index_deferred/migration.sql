-- Nothing on PostgreSQL: its trigram indexes on "RunResult" follow the rows themselves. The SQLite migration of this
-- name moves SQLite's FTS5 indexing out of the result writes.
SELECT 1;
