import { describe, expect, it } from "vitest";
import {
  defaultItemFilter, itemQueryParams, MAX_REASON_CHARS, MAX_SEARCH_CHARS, parseItemQuery, reasonKey, reasonMatch, withFilter, withSearch,
  withSort, type ItemQuery,
} from "@/lib/runs/item-query";

const parse = (params: Record<string, string>) => parseItemQuery(params, { filter: "failing" });

describe("item query (URL state of the item explorer)", () => {
  it("defaults to the run's default filter, dataset order and page 1", () => {
    expect(parse({})).toEqual({ filter: "failing", sort: "item", dir: "asc", page: 1 });
    expect(defaultItemFilter(true)).toBe("all");
    expect(defaultItemFilter(false)).toBe("failing");
  });

  it("reads every field, trimming the search", () => {
    expect(parse({ filter: "subem", reason: "error: x", q: "  paris ", sort: "f1", dir: "asc", page: "3" })).toEqual({
      filter: "subem", reason: "error: x", q: "paris", sort: "f1", dir: "asc", page: 3,
    });
    expect(parseItemQuery(new URLSearchParams("filter=errors&q=a%20b"), { filter: "all" })).toMatchObject({ filter: "errors", q: "a b" });
  });

  it("falls back to defaults for malformed values instead of failing", () => {
    expect(parse({ filter: "nope", sort: "DROP TABLE", dir: "up", page: "-2", q: "   " })).toEqual(parse({}));
    expect(parse({ page: "0" }).page).toBe(1);
    expect(parse({ page: "1e3" }).page).toBe(1);
    expect(parse({ q: "x".repeat(500) }).q).toHaveLength(MAX_SEARCH_CHARS);
    // Numbers sort highest first unless told otherwise.
    expect(parse({ sort: "latency" }).dir).toBe("desc");
  });

  it("writes the filter always and the rest only when not the default, and reads back the same query", () => {
    const base = parse({});
    expect(itemQueryParams(base).toString()).toBe("filter=failing");
    const query: ItemQuery = { filter: "all", reason: "error: a&b", q: "x y", sort: "question", dir: "desc", page: 4 };
    const params = itemQueryParams(query);
    expect(parseItemQuery(params, { filter: "failing" })).toEqual(query);
    expect(itemQueryParams(query, { page: false }).has("page")).toBe(false);
  });

  it("changes filter, sort and search back on page 1", () => {
    const query: ItemQuery = { filter: "errors", reason: "error: a", q: "x", sort: "f1", dir: "desc", page: 5 };
    expect(withFilter(query, "failing")).toEqual({ filter: "failing", q: "x", sort: "f1", dir: "desc", page: 1 });
    expect(withFilter(query, "errors", "error: b").reason).toBe("error: b");
    expect(withSort(query, "f1")).toMatchObject({ sort: "f1", dir: "asc", page: 1 });
    expect(withSort(query, "question")).toMatchObject({ sort: "question", dir: "asc", page: 1 });
    expect(withSearch(query, "  ")).toEqual({ filter: "errors", reason: "error: a", sort: "f1", dir: "desc", page: 1 });
    expect(withSearch(query, " new ").q).toBe("new");
  });

  it("carries a long fail reason as its start, matched as a prefix", () => {
    expect(reasonKey("error: 500")).toBe("error: 500");
    expect(reasonMatch("error: 500")).toEqual({ exact: "error: 500" });
    const long = `error: ${"é".repeat(600)}`;
    const key = reasonKey(long);
    expect(Array.from(key)).toHaveLength(MAX_REASON_CHARS + 1);
    expect(reasonMatch(key)).toEqual({ prefix: Array.from(long).slice(0, MAX_REASON_CHARS).join("") });
    // A short reason that happens to end with "…" is still exact.
    expect(reasonMatch("error: wait…")).toEqual({ exact: "error: wait…" });
    expect(parseItemQuery({ reason: key }, { filter: "failing" }).reason).toBe(key);
  });
});
