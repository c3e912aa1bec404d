import { z } from "zod";
import { idSchema } from "@/app/_lib/ids";
import type { RunWithNames } from "@/lib/db";
import { usageCost, type PriceTable } from "@/lib/model/prices";
import { computeLiveStats } from "@/lib/runs/live-stats";

/** Columns the runs table sorts by; each is a query value (`?sort=em&dir=desc`). */
export const RUN_SORT_KEYS = ["id", "status", "dataset", "skill", "model", "progress", "em", "f1", "started", "duration", "cost"] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];
export type SortDir = "asc" | "desc";

const optionalId = idSchema("id").optional().catch(undefined);

/** The runs list's URL state. Anything malformed falls back to the default instead of failing the page. */
export const RunListQuerySchema = z.object({
  sort: z.enum(RUN_SORT_KEYS).catch("id"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  datasetId: optionalId,
  skillId: optionalId,
});

export interface RunListQuery {
  sort: RunSortKey;
  dir: SortDir;
  datasetId?: number;
  skillId?: number;
}

// Text columns read naturally A→Z; numbers and dates best first (highest, newest).
const TEXT_KEYS: ReadonlySet<RunSortKey> = new Set(["status", "dataset", "skill", "model"]);
export const defaultDir = (key: RunSortKey): SortDir => (TEXT_KEYS.has(key) ? "asc" : "desc");

export function parseRunListQuery(searchParams: Record<string, string | string[] | undefined>): RunListQuery {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const parsed = RunListQuerySchema.parse({
    sort: first(searchParams.sort),
    dir: first(searchParams.dir),
    datasetId: first(searchParams.datasetId),
    skillId: first(searchParams.skillId),
  });
  return {
    sort: parsed.sort,
    dir: parsed.dir ?? defaultDir(parsed.sort),
    ...(parsed.datasetId !== undefined ? { datasetId: parsed.datasetId } : {}),
    ...(parsed.skillId !== undefined ? { skillId: parsed.skillId } : {}),
  };
}

/** The link a column header points to: the same filters, this column, and the other direction if it is already sorted by it. */
export function sortHref(query: RunListQuery, key: RunSortKey): string {
  const dir = query.sort === key ? (query.dir === "asc" ? "desc" : "asc") : defaultDir(key);
  return runListHref({ ...query, sort: key, dir });
}

export function runListHref(query: RunListQuery): string {
  const params = new URLSearchParams({ sort: query.sort, dir: query.dir });
  if (query.datasetId !== undefined) params.set("datasetId", String(query.datasetId));
  if (query.skillId !== undefined) params.set("skillId", String(query.skillId));
  return `/runs?${params}`;
}

/** A run with the derived numbers the table shows and sorts by. */
export interface RunListRow {
  run: RunWithNames;
  em: number | null;
  f1: number | null;
  fraction: number;
  durationSeconds: number | null;
  /** US dollars at the model's price; null when no price is known (or the import recorded no tokens). */
  costUsd: number | null;
}

/** `prices`: the server's table (pricesForDisplay), null when it is broken. */
export function toRunListRow(run: RunWithNames, now: Date, prices: PriceTable | null): RunListRow {
  const stats = computeLiveStats(run, now);
  return {
    run, em: stats.em, f1: stats.f1, fraction: stats.fraction, durationSeconds: run.startedAt ? stats.elapsedSeconds : null,
    costUsd: usageCost(run, prices).usd,
  };
}

const SORT_VALUE: Record<RunSortKey, (row: RunListRow) => string | number | null> = {
  id: (row) => row.run.id,
  status: (row) => row.run.status,
  dataset: (row) => row.run.datasetName.toLowerCase(),
  skill: (row) => `${row.run.skillName.toLowerCase()}\u0000${String(row.run.skillVersion).padStart(6, "0")}`,
  model: (row) => (row.run.backend === "baseline" ? "" : row.run.model.toLowerCase()),
  progress: (row) => row.fraction,
  em: (row) => row.em,
  f1: (row) => row.f1,
  started: (row) => row.run.startedAt?.getTime() ?? null,
  duration: (row) => row.durationSeconds,
  cost: (row) => row.costUsd,
};

/** Sorted by the chosen column; rows without a value (no items yet, never started) go last either way; ties newest first. */
export function sortRunRows(rows: readonly RunListRow[], sort: RunSortKey, dir: SortDir): RunListRow[] {
  const valueOf = SORT_VALUE[sort];
  const sign = dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = valueOf(a);
    const y = valueOf(b);
    if (x === null || y === null) return x === y ? b.run.id - a.run.id : x === null ? 1 : -1;
    if (x < y) return -sign;
    if (x > y) return sign;
    return b.run.id - a.run.id;
  });
}
