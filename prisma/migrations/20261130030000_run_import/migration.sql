-- Result import (issue 6): where a run's results came from. "executed": run by Skillboard; "imported": read from a
-- results file (the seed's results.jsonl or Skillboard's own JSONL export).
ALTER TABLE "Run" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'executed';
