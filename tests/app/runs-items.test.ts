// GET /api/runs/[id]/items's logic, and the explorer's links: 400 / 404 like the live route, the run page's query
// string understood the same way, and item ids of any text surviving the round trip through a URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRunItems } from "@/app/runs/_lib/items-payload";
import { backToTableHref, explorerHref, itemHref } from "@/app/runs/_lib/item-links";
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
  it("answers 400 for a malformed run id and 404 for an unknown run", async () => {
    expect(await loadRunItems(t.db, "12abc", {})).toEqual({ status: 400, body: { error: "run id must be a positive whole number" } });
    expect(await loadRunItems(t.db, "4242", {})).toEqual({ status: 404, body: { error: "run 4242 not found" } });
  });

  it("opens a finished run on its failing items, and reads the run page's query string", async () => {
    const first = await loadRunItems(t.db, String(runId), {});
    expect(first.status).toBe(200);
    if (first.status !== 200) return;
    expect(first.body.query).toEqual({ filter: "failing", sort: "item", dir: "asc", page: 1 });
    expect(first.body.total).toBe(first.body.counts.failing);
    expect(first.body.rows.every((row) => row.em === 0)).toBe(true);

    const searched = await loadRunItems(t.db, String(runId), new URLSearchParams("filter=all&q=clue%2017)&sort=f1&page=7"));
    expect(searched.status === 200 && searched.body).toMatchObject({ total: 1, page: 1, search: "fulltext", rows: [{ itemId: "sq-000017" }] });
    expect(JSON.parse(JSON.stringify(searched.body))).toEqual(searched.body);
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
