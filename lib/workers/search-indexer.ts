/**
 * The search index's background catch-up (lib/db/search-index.ts): on SQLite, results are indexed after they are
 * written, and a search indexes what is missing before it queries. This keeps that missing part small, so a search
 * made during or after a large run does not wait for it: every few seconds it indexes up to `rowsPerPoll` results.
 */
import { indexSearchTail, type Db } from "../db";
import { engineOf } from "../db/engine";
import { startPoller } from "../process/poller";

export interface SearchIndexer {
  /** Stops polling; resolves once a batch under way is committed. */
  stop(): Promise<void>;
}

export function startSearchIndexer(
  db: Db,
  options: { pollMs?: number; rowsPerPoll?: number; log?: (line: string) => void } = {},
): SearchIndexer {
  if (engineOf(db) !== "sqlite") return { stop: async () => undefined };
  const { pollMs = 3000, rowsPerPoll = 20_000, log = () => undefined } = options;
  let failing = false;
  let current: Promise<void> = Promise.resolve();
  const poller = startPoller(() => {
    current = indexSearchTail(db, rowsPerPoll).then(
      () => void (failing = false),
      (error: unknown) => {
        // Said once, not every few seconds; a search still indexes what it needs itself.
        if (!failing) log(`search index: ${(error as Error).message}`);
        failing = true;
      },
    );
    return current;
  }, pollMs);
  return {
    async stop() {
      poller.stop();
      await current;
    },
  };
}
