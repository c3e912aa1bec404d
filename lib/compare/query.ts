import type { OutcomeGroup } from "./types";

export const OUTCOME_GROUPS: readonly OutcomeGroup[] = ["fixed", "broken", "both-right", "both-wrong", "f1-up", "f1-down"];
export const OUTCOME_LABELS: Record<OutcomeGroup, string> = {
  fixed: "Fixed",
  broken: "Broken",
  "both-right": "Both right",
  "both-wrong": "Both wrong",
  "f1-up": "F1 up",
  "f1-down": "F1 down",
};
export const MAX_COMPARED_RUNS = 8;

/** What /compare shows, all of it in the URL: `?runs=12,15,19&vs=15&group=fixed&item=q1&diff=split`. */
export interface CompareQuery {
  /** The first is the reference. */
  runIds: number[];
  /** The run whose outcomes against the reference the groups list (defaults to the second run). */
  vs?: number;
  group?: OutcomeGroup;
  item?: string;
  diff: "unified" | "split";
  page: number;
}

type Params = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const positive = (value: string | undefined) => (value !== undefined && /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : undefined);

/** `runs=1,2` or `runs=1&runs=2` (the Runs page's form without script): ids in order, duplicates dropped. */
export function parseRunIds(value: string | string[] | undefined): number[] {
  const parts = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((part) => part.split(","));
  const ids: number[] = [];
  for (const part of parts) {
    const id = positive(part.trim());
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids.slice(0, MAX_COMPARED_RUNS);
}

export function parseCompareQuery(params: Params): CompareQuery {
  const runIds = parseRunIds(params.runs);
  const vs = positive(first(params.vs));
  const group = first(params.group);
  const item = first(params.item);
  return {
    runIds,
    vs: vs !== undefined && runIds.indexOf(vs) > 0 ? vs : undefined,
    group: OUTCOME_GROUPS.includes(group as OutcomeGroup) ? (group as OutcomeGroup) : undefined,
    item: item ? item : undefined,
    diff: first(params.diff) === "split" ? "split" : "unified",
    page: positive(first(params.page)) ?? 1,
  };
}

/** The canonical URL of a comparison view; defaults are left out so links stay short. */
export function compareHref(query: Partial<CompareQuery> & { runIds: number[] }): string {
  const params = new URLSearchParams();
  params.set("runs", query.runIds.join(","));
  if (query.vs !== undefined && query.vs !== query.runIds[1]) params.set("vs", String(query.vs));
  if (query.group) params.set("group", query.group);
  if (query.item !== undefined) params.set("item", query.item);
  if (query.diff === "split") params.set("diff", "split");
  if (query.page !== undefined && query.page > 1) params.set("page", String(query.page));
  return `/compare?${params.toString().replace(/%2C/g, ",")}`;
}
