-- Nothing on PostgreSQL: its trigram indexes on "RunResult" (in the baseline) follow the rows already. The SQLite
-- migration of this name makes SQLite's FTS5 search table do the same.
SELECT 1;
