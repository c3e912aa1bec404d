// Downloads over HTTP (the route handlers' logic): CSV that a CSV parser reads back as the data, formula cells
// neutralised, the seed's results.jsonl fields and types, JSONL's key set, "this view" = the explorer's rows, headers.
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError, queryRunItems } from "@/lib/db";
import { JSONL_KEYS, type ExportFormat } from "@/lib/export/run-export";
import { handleResultsDownload, handleSummaryDownload } from "@/lib/export/results-request";
import { parseItemQuery } from "@/lib/runs/item-query";
import type { ItemResult } from "@/lib/runs/types";
import { TRICKY_ANSWERS, writeTrickyRun } from "../support/export-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

const SEED_ROW_KEYS = ["id", "question", "em", "f1", "sub_em", "hard", "soft", "predicted_answer", "gold_answers", "response", "fail_reason", "agent_ok", "n_turns"];
const SEED_BATCH_KEYS = ["id", "question", "task_description", "task_type", "hard", "soft", "predicted_answer", "response", "fail_reason", "agent_ok", "n_turns", "gold_answer", "phase"];

describe("results downloads", () => {
  let t: TestDatabase;
  let runId = 0;
  let results: ItemResult[] = [];

  beforeAll(async () => {
    t = createTestDb();
    ({ runId, results } = await writeTrickyRun(t.db, 60));
  });
  afterAll(() => t.close());

  // The route has parsed the format (csv unless named; anything else is a 400 there: http-edge.test.ts).
  const download = (params: Record<string, string>) =>
    handleResultsDownload(t.db, runId, (params.format ?? "csv") as ExportFormat, new URLSearchParams(params));

  it("CSV reads back with a CSV parser as the data, with formula cells neutralised", async () => {
    const response = await download({ format: "csv" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="skillboard-results-${runId}-[a-z0-9-]+\\.csv"$`));
    const parsed = Papa.parse<Record<string, string>>(await response.text(), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(results.length);
    for (const [index, row] of parsed.data.entries()) {
      const r = results[index]!;
      expect(row.id).toBe(r.itemId);
      expect(row.question).toBe(r.question);
      expect(JSON.parse(row.gold_answers!)).toEqual(r.goldAnswers);
      expect(unneutralise(row.predicted_answer!)).toBe(r.predictedAnswer);
      expect(Number(row.em)).toBe(r.em);
      expect(Number(row.f1)).toBeCloseTo(r.f1, 12);
      expect(row.status).toBe(r.status);
      expect(Number(row.prompt_tokens)).toBe(r.promptTokens);
    }
    const answers = parsed.data.map((row) => row.predicted_answer);
    for (const tricky of TRICKY_ANSWERS) {
      const cell = answers.find((answer) => answer === tricky || answer === `'${tricky}`);
      expect(cell, tricky).toBeDefined();
      // A cell a spreadsheet would run as a formula starts with an apostrophe; others are untouched.
      expect(cell).toBe(/^[=+\-@\t\r]/.test(tricky) ? `'${tricky}` : tricky);
    }
  });

  it("JSONL rows have exactly the documented keys, with the conversation and user prompt", async () => {
    const response = await download({ format: "jsonl" });
    expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const rows = (await response.text()).trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toHaveLength(results.length);
    for (const row of rows) expect(Object.keys(row)).toEqual([...JSONL_KEYS]);
    const first = results[0]!;
    expect(rows[0]!.conversation).toEqual(first.conversation);
    expect(rows[0]!.user_prompt).toBe(first.userPrompt);
  });

  it("seed rows carry exactly the seed's fields, in its order and with Python's types", async () => {
    const text = await (await download({ format: "seed" })).text();
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(results.length);
    for (const [index, line] of lines.entries()) {
      const row = JSON.parse(line) as Record<string, unknown>;
      const r = results[index]!;
      if (r.phase) {
        expect(Object.keys(row)).toEqual(SEED_BATCH_KEYS);
        expect(row.phase).toBe(r.phase);
        expect(line).toContain('"soft": 0.0');
      } else {
        expect(Object.keys(row)).toEqual(SEED_ROW_KEYS);
        // Floats print as Python floats (1.0, 0.0), ints as ints; json.dumps separators.
        expect(line).toMatch(/"em": (0|1)\.0, "f1": [0-9.e-]+, "sub_em": (0|1)\.0, "hard": (0|1), /);
        expect(typeof row.agent_ok).toBe("boolean");
        expect(Number.isInteger(row.n_turns)).toBe(true);
      }
      expect(row.id).toBe(r.itemId);
    }
  });

  it("'this view' is exactly the explorer's rows, in its order, across many pages (keyset)", async () => {
    const views: Record<string, string>[] = [{ filter: "failing" }, { filter: "all", sort: "f1", dir: "desc" }, { filter: "all", sort: "status" }, { filter: "failing", q: "the" }];
    for (const params of views) {
      const query = parseItemQuery(new URLSearchParams(params), { filter: "all" });
      const expected: string[] = [];
      for (let page = 1; ; page++) {
        const result = await queryRunItems(t.db, runId, { ...query, page }, { pageSize: 7 });
        expected.push(...result.rows.map((row) => row.itemId));
        if (!result.hasNext) break;
      }
      const text = await (await download({ ...params, format: "jsonl" })).text();
      const ids = text.trimEnd().split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id);
      expect(ids, JSON.stringify(params)).toEqual(expected);
    }
    // Small export pages too, so ties of the sort key are crossed between pages.
    const { exportRunResults } = await import("@/lib/export/run-export");
    const chunks: string[] = [];
    for await (const chunk of exportRunResults(t.db, runId, "jsonl", { view: { filter: "all", sort: "em", dir: "desc" }, pageSize: 3 })) chunks.push(chunk);
    const paged = chunks.join("").trimEnd().split("\n").map((line) => (JSON.parse(line) as { id: string }).id);
    const all = await queryRunItems(t.db, runId, { filter: "all", sort: "em", dir: "desc", page: 1 }, { pageSize: 1000 });
    expect(paged).toEqual(all.rows.map((row) => row.itemId));
    const failing = await download({ filter: "failing", format: "csv" });
    expect(failing.headers.get("content-disposition")).toMatch(/skillboard-view-\d+-/);
  });

  it("reads conversations and view rows for pages over the driver's 999 bound parameters", async () => {
    const { getItemConversations } = await import("@/lib/db");
    const ids = Array.from({ length: 1200 }, (_, index) => ({ itemId: `missing-${index}`, trial: 1 })).concat({ itemId: results[0]!.itemId, trial: 1 });
    expect((await getItemConversations(t.db, runId, ids)).size).toBe(1);
    const { iterateViewResultPages } = await import("@/lib/db");
    const pages = [];
    for await (const page of iterateViewResultPages(t.db, runId, { filter: "all", sort: "item", dir: "asc" }, 1200)) pages.push(page.length);
    expect(pages).toEqual([results.length]);
  });

  it("refuses unknown runs before sending anything; the summary has the system prompt and no secret", async () => {
    await expect(handleResultsDownload(t.db, 999999, "csv", new URLSearchParams())).rejects.toBeInstanceOf(NotFoundError);
    await expect(handleSummaryDownload(t.db, 999999)).rejects.toBeInstanceOf(NotFoundError);
    const summary = await handleSummaryDownload(t.db, runId);
    expect(summary.headers.get("content-type")).toBe("application/json");
    const body = (await summary.json()) as { run: { source: string; system_prompt: string }; metrics: { n: number } };
    expect(body.run.source).toBe("executed");
    expect(body.run.system_prompt).toContain("question answering");
    expect(body.metrics.n).toBe(results.length);
    expect(JSON.stringify(body)).not.toMatch(/api[_-]?key|token"/i);
  });
});

function unneutralise(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
