// The runs table's URL state and sorting, and the Compare page's "latest completed run per skill version".
import { describe, expect, it } from "vitest";
import type { RunWithNames } from "@/lib/db";
import { RunConfigSchema } from "@/lib/runs";
import { latestCompletedBySkillVersion } from "@/app/compare/_lib/latest-completed";
import { niceTicks } from "@/app/runs/_lib/nice-ticks";
import { parseRunListQuery, sortHref, sortRunRows, toRunListRow } from "@/app/runs/_lib/run-list-query";

const T0 = new Date("2026-03-01T10:00:00Z");
let nextId = 1;
function view(overrides: Partial<RunWithNames> = {}): RunWithNames {
  const id = overrides.id ?? nextId++;
  return {
    id, name: null, datasetId: 1, datasetName: "dev", skillVersionId: 10, skillId: 5, skillName: "qa", skillVersion: 1,
    status: "completed", source: "executed", backend: "openai", model: "m", config: RunConfigSchema.parse({ model: { backend: "openai" }, settings: {} }),
    systemPrompt: "", error: null, itemsTotal: 10, nDone: 10, emSum: 5, f1Sum: 6, subEmSum: 7, nAgentOk: 10, nErrors: 0, nTimeouts: 0,
    promptTokens: 0, completionTokens: 0, latencyMsSum: 0, retries: 0, rateLimited: 0, inFlight: 0, retryingNow: 0, rateLimitedNow: 0, concurrencyLimitNow: null,
    workerId: null, heartbeatAt: null, cancelRequestedAt: null, createdAt: T0, startedAt: T0, resumedAt: T0, resumedDone: 0,
    finishedAt: new Date(T0.getTime() + id * 1000), activeMs: 1000,
    ...overrides,
  };
}

describe("runs list query", () => {
  it("reads sort, direction and filters from the URL, falling back to defaults for junk", () => {
    expect(parseRunListQuery({})).toEqual({ sort: "id", dir: "desc" });
    expect(parseRunListQuery({ sort: "em", dir: "asc", datasetId: "3", skillId: ["4", "5"] })).toEqual({ sort: "em", dir: "asc", datasetId: 3, skillId: 4 });
    expect(parseRunListQuery({ sort: "dataset" })).toEqual({ sort: "dataset", dir: "asc" });
    expect(parseRunListQuery({ sort: "drop table", dir: "sideways", datasetId: "x1" })).toEqual({ sort: "id", dir: "desc" });
  });

  it("links a column header to that column, toggling the direction when it is already the sort", () => {
    const query = parseRunListQuery({ sort: "em", dir: "desc", datasetId: "2" });
    expect(sortHref(query, "em")).toBe("/runs?sort=em&dir=asc&datasetId=2");
    expect(sortHref(query, "f1")).toBe("/runs?sort=f1&dir=desc&datasetId=2");
    expect(sortHref(query, "skill")).toBe("/runs?sort=skill&dir=asc&datasetId=2");
  });

  it("sorts by a column either way, rows without a value last", () => {
    const rows = [view({ id: 1, emSum: 2 }), view({ id: 2, emSum: 8 }), view({ id: 3, nDone: 0, emSum: 0, status: "queued", startedAt: null }), view({ id: 4, emSum: 5 })]
      .map((run) => toRunListRow(run, T0, {}));
    expect(sortRunRows(rows, "em", "desc").map((row) => row.run.id)).toEqual([2, 4, 1, 3]);
    expect(sortRunRows(rows, "em", "asc").map((row) => row.run.id)).toEqual([1, 4, 2, 3]);
    expect(sortRunRows(rows, "started", "desc").at(-1)?.run.id).toBe(3);
    expect(sortRunRows(rows, "id", "desc").map((row) => row.run.id)).toEqual([4, 3, 2, 1]);
  });

  it("prices each run at its model's price, unknown (never 0) without one, and sorts by cost with unknown last", () => {
    const rows = [
      view({ id: 1, model: "gpt-4.1-mini", promptTokens: 1_000_000, completionTokens: 0 }), // $0.40 at the list price
      view({ id: 2, model: "my-local-llama", promptTokens: 5_000, completionTokens: 500 }), // no price known
      view({ id: 3, model: "gpt-4.1-mini", promptTokens: 0, completionTokens: 1_000_000 }), // $1.60
      view({ id: 4, backend: "baseline", model: "baseline" }), // calls no model
      view({ id: 5, source: "imported", model: "gpt-4.1-mini" }), // the results file carried no token counts
    ].map((run) => toRunListRow(run, T0, {}));
    expect(rows.map((row) => row.costUsd)).toEqual([expect.closeTo(0.4, 10), null, expect.closeTo(1.6, 10), 0, null]);
    expect(sortRunRows(rows, "cost", "desc").map((row) => row.run.id)).toEqual([3, 1, 4, 5, 2]);
    expect(sortRunRows(rows, "cost", "asc").map((row) => row.run.id)).toEqual([4, 1, 3, 5, 2]);
    // The server's own table wins over the list price; a broken table (null) leaves every model unknown.
    expect(toRunListRow(rows[0]!.run, T0, { "gpt-4.1-mini": { input: 1, output: 1 } }).costUsd).toBeCloseTo(1, 10);
    expect(toRunListRow(rows[0]!.run, T0, null).costUsd).toBeNull();
  });
});

describe("latestCompletedBySkillVersion", () => {
  it("keeps the latest completed run of each skill version per dataset, best EM first", () => {
    const runs = [
      view({ id: 1, skillVersionId: 10, skillVersion: 1, emSum: 9 }),
      view({ id: 2, skillVersionId: 10, skillVersion: 1, emSum: 4 }), // later run of v1: replaces run 1
      view({ id: 3, skillVersionId: 11, skillVersion: 2, emSum: 6 }),
      view({ id: 4, skillVersionId: 11, skillVersion: 2, emSum: 10, status: "cancelled" }), // not completed: ignored
      view({ id: 5, datasetId: 2, datasetName: "test", skillVersionId: 10, emSum: 1 }),
    ];
    const groups = latestCompletedBySkillVersion(runs);
    expect(groups.map((group) => group.datasetName)).toEqual(["dev", "test"]);
    expect(groups[0]?.rows.map((row) => [row.run.id, row.em, row.completedRuns])).toEqual([[3, 0.6, 1], [2, 0.4, 2]]);
    expect(groups[1]?.rows.map((row) => row.run.id)).toEqual([5]);
  });
});

describe("niceTicks", () => {
  it("gives round ticks from 0 up to at least the maximum", () => {
    expect(niceTicks(0.22)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(0.4)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(niceTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(1800)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});
