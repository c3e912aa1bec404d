// GET /api/runs/[id]/items's logic, and the explorer's links: a not-found error for an unknown run (the route's 400
// and 404 are in http-edge.test.ts), the run page's query string understood the same way, and item ids of any text
// surviving the round trip through a URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRunItems } from "@/app/_lib/items-payload";
import { backToTableHref, explorerHref, itemHref } from "@/app/runs/_lib/item-links";
import { NotFoundError } from "@/lib/db";
import { parseItemQuery } from "@/lib/runs/item-query";
import { makeItemResults, writeGeneratedRun } from "../support/item-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let runId: number;
beforeAll(async () => {
  t = createTestDb();
  runId = (await writeGeneratedRun(t.db, makeItemResults(120, { seed: 2 }))).runId;
});
afterAll(() => t.close());

describe("loadRunItems", () => {
  it("fails with a not-found error for an unknown run", async () => {
    const error = await loadRunItems(t.db, 4242, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe("run 4242 not found");
  });

  it("opens a finished run on its failing items, and reads the run page's query string", async () => {
    const first = await loadRunItems(t.db, runId, {});
    expect(first.query).toEqual({ filter: "failing", sort: "item", dir: "asc", page: 1 });
    expect(first.total).toBe(first.counts.failing);
    expect(first.rows.every((row) => row.em === 0)).toBe(true);

    const searched = await loadRunItems(t.db, runId, new URLSearchParams("filter=all&q=clue%2017)&sort=f1&page=7"));
    expect(searched).toMatchObject({ total: 1, page: 1, search: "fulltext", rows: [{ itemId: "sq-000017" }] });
    expect(JSON.parse(JSON.stringify(searched))).toEqual(searched);
  });
});

describe("explorer links", () => {
  const query = parseItemQuery({ filter: "errors", reason: "error: 500 & more", q: "a b", sort: "latency", page: "3" }, { filter: "failing" });

  it("encodes item ids of any text into one path segment, and carries the view without its page", () => {
    const href = itemHref(7, "a/b c?#%&=ü", query);
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe("/runs/7/items/a%2Fb%20c%3F%23%25%26%3D%C3%BC");
    expect(decodeURIComponent(url.pathname.split("/").at(-1)!)).toBe("a/b c?#%&=ü");
    expect(parseItemQuery(url.searchParams, { filter: "all" })).toEqual({ ...query, page: 1 });
  });

  it("goes back to the page of the table holding the item, at its row", () => {
    const view = "filter=errors&reason=error%3A+500+%26+more&q=a+b&sort=latency&dir=desc";
    expect(explorerHref(7, query)).toBe(`/runs/7?${view}&page=3#items`);
    expect(backToTableHref(7, query, "x/1", 101)).toBe(`/runs/7?${view}&page=3#item-x%2F1`);
    expect(backToTableHref(7, query, "x", null)).toBe(`/runs/7?${view}#items`);
  });
});
