import type { ItemQuery } from "../runs/item-query";
import type { ItemStatus, RunStatus } from "../runs/types";
import type { Db } from "./client";
import { engineOf } from "./engine";
import { NotFoundError } from "./errors";
import { beyondSql, orderBySql, sortKeySql, viewWhereSql } from "./explorer-sql";
import { countView } from "./explorer-page";
import { ensureSearchIndexed } from "./search-index";

/** One row of the explorer: an item, and which of its trials (1 for a run without repeated trials). */
export interface ItemTrialRef {
  itemId: string;
  trial: number;
}

/** Where an item (one trial of it) sits in the explorer's current view, and the rows before and after it there. */
export interface ItemNeighbours {
  prev: ItemTrialRef | null;
  next: ItemTrialRef | null;
  /** 1-based place in the view; null when the item is not in it (a link shared with another filter). */
  position: number | null;
  total: number;
}

/**
 * The neighbours of an item under the view's sort, by keyset: the first row of the view after (or before) the
 * item's (sort key, id). The same query layer as the table, so prev/next walk exactly the rows the table lists.
 */
export async function getItemNeighbours(
  db: Db,
  runId: number,
  itemId: string,
  query: Omit<ItemQuery, "page">,
  trial = 1,
): Promise<ItemNeighbours> {
  await ensureSearchIndexed(db, query.q);
  const [current] = await db.$queryRaw<{ id: number | bigint; d: number | bigint; k: string | number | bigint }[]>`
    SELECT "id", "datasetItemId" AS d, ${sortKeySql(query.sort)} AS k FROM "RunResult" WHERE "runId" = ${runId} AND "itemId" = ${itemId} AND "trial" = ${trial}`;
  if (!current) throw new NotFoundError("item", itemId);
  const at = { id: Number(current.id), datasetItemId: Number(current.d), key: typeof current.k === "bigint" ? Number(current.k) : current.k };
  const where = viewWhereSql(engineOf(db), runId, query);
  const before = beyondSql(query.sort, query.dir, at, "before");

  const [next] = await db.$queryRaw<{ itemId: string; trial: number | bigint }[]>`
    SELECT "itemId", "trial" FROM "RunResult" WHERE ${where} AND ${beyondSql(query.sort, query.dir, at, "after")}
    ${orderBySql(query.sort, query.dir)} LIMIT 1`;
  const [prev] = await db.$queryRaw<{ itemId: string; trial: number | bigint }[]>`
    SELECT "itemId", "trial" FROM "RunResult" WHERE ${where} AND ${before} ${orderBySql(query.sort, query.dir, true)} LIMIT 1`;
  const [inView] = await db.$queryRaw<{ one: number }[]>`SELECT 1 AS one FROM "RunResult" WHERE ${where} AND "id" = ${at.id}`;
  let position: number | null = null;
  if (inView) {
    const [row] = await db.$queryRaw<{ n: number | bigint }[]>`SELECT COUNT(*) AS n FROM "RunResult" WHERE ${where} AND ${before}`;
    position = Number(row?.n ?? 0) + 1;
  }
  const ref = (row: { itemId: string; trial: number | bigint } | undefined) => (row ? { itemId: row.itemId, trial: Number(row.trial) } : null);
  return { prev: ref(prev), next: ref(next), position, total: await countView(db, runId, query) };
}

/** The same dataset item in another run: how that run did on it. */
export interface ItemInOtherRun {
  runId: number;
  runName: string | null;
  runStatus: RunStatus;
  skillName: string;
  skillVersion: number;
  backend: string;
  model: string;
  status: ItemStatus;
  em: number;
  f1: number;
}

/**
 * Other runs on the same dataset that have a result for this item, newest first. A run with repeated trials shows
 * the status of the item's first trial and its EM and F1 averaged over its trials.
 */
export async function listItemInOtherRuns(
  db: Db,
  input: { runId: number; datasetId: number; itemId: string; limit?: number },
): Promise<ItemInOtherRun[]> {
  const rows = await db.$queryRaw<(Omit<ItemInOtherRun, "runId" | "skillVersion"> & { runId: number | bigint; skillVersion: number | bigint })[]>`
    SELECT r."id" AS "runId", r."name" AS "runName", r."status" AS "runStatus", s."name" AS "skillName", sv."version" AS "skillVersion",
           r."backend" AS "backend", r."model" AS "model", rr."status" AS "status",
           (SELECT AVG(t."em") FROM "RunResult" t WHERE t."runId" = r."id" AND t."itemId" = rr."itemId") AS "em",
           (SELECT AVG(t."f1") FROM "RunResult" t WHERE t."runId" = r."id" AND t."itemId" = rr."itemId") AS "f1"
    FROM "Run" r
    JOIN "RunResult" rr ON rr."runId" = r."id" AND rr."itemId" = ${input.itemId} AND rr."trial" = 1
    JOIN "SkillVersion" sv ON sv."id" = r."skillVersionId"
    JOIN "Skill" s ON s."id" = sv."skillId"
    WHERE r."datasetId" = ${input.datasetId} AND r."id" <> ${input.runId}
    ORDER BY r."id" DESC LIMIT ${input.limit ?? 20}`;
  return rows.map((row) => ({ ...row, runId: Number(row.runId), skillVersion: Number(row.skillVersion) }));
}
