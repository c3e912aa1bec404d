// "Download this view" in a real browser: on a finished run, the Failing filter, then the CSV of that view, parsed
// with papaparse: exactly the failing items, with quotes, newlines, non-ASCII text and neutralised formula cells.
import { readFileSync } from "node:fs";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRunItems, type Db } from "@/lib/db";
import { BUILD_TIMEOUT_MS, type AppServer } from "../support/app-server";
import { startBrowserApp, type BrowserApp } from "../support/browser-app";
import { screenshot, type BrowserSession } from "../support/browser";
import { TRICKY_ANSWERS, writeTrickyRun } from "../support/export-fixtures";

describe("downloads (browser)", () => {
  let app: BrowserApp | undefined;
  let server: AppServer | undefined;
  let browser: BrowserSession | undefined;
  let db: Db | undefined;
  let runId = 0;

  beforeAll(async () => {
    app = await startBrowserApp({ viewport: { width: 1280, height: 900 } });
    ({ server, db, browser } = app);
    ({ runId } = await writeTrickyRun(db, 120));
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await app?.stop();
  }, 30_000);

  it("downloads the CSV of the failing view", async () => {
    const { page, errors } = browser!;
    await page.goto(`${server!.baseURL}/runs/${runId}?filter=all`);
    await page.getByRole("button", { name: "Failing", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("filter") === "failing");
    const view = page.getByRole("navigation", { name: "Download this view" });
    await expect.poll(() => view.getByRole("link", { name: "CSV" }).getAttribute("href")).toContain("filter=failing");
    await screenshot(page, "downloads-view");
    const [download] = await Promise.all([page.waitForEvent("download"), view.getByRole("link", { name: "CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^skillboard-view-${runId}-[a-z0-9-]+\\.csv$`));
    const text = readFileSync((await download.path())!, "utf8");
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);

    const expected = await queryRunItems(db!, runId, { filter: "failing", sort: "item", dir: "asc", page: 1 }, { pageSize: 10_000 });
    expect(expected.rows.length).toBeGreaterThan(TRICKY_ANSWERS.length);
    expect(parsed.data.map((row) => row.id)).toEqual(expected.rows.map((row) => row.itemId));
    for (const [index, row] of parsed.data.entries()) {
      const want = expected.rows[index]!;
      expect(Number(row.em)).toBe(0);
      expect(row.status).toBe(want.status);
      expect(row.question).toBe(want.question);
      expect(row.fail_reason).toBe(/^[=+\-@\t\r]/.test(want.failReason) ? `'${want.failReason}` : want.failReason);
      expect(row.predicted_answer).toBe(/^[=+\-@\t\r]/.test(want.predictedAnswer) ? `'${want.predictedAnswer}` : want.predictedAnswer);
    }
    const answers = parsed.data.map((row) => row.predicted_answer);
    expect(answers).toContain('He said "yes", then\nleft — Zürich 東京');
    expect(answers).toContain(`'=HYPERLINK("http://evil.example","click")`);
    expect(answers).not.toContain('=HYPERLINK("http://evil.example","click")');
    expect(errors).toEqual([]);
  });
});
