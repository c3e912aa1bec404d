// "Download this view" in a real browser: on a finished run, the Failing filter, then the CSV of that view, parsed
// with papaparse: exactly the failing items, with quotes, newlines, non-ASCII text and neutralised formula cells.
// Then the way back: "Import results" with the seed's results.jsonl of that run, and with a broken file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { getRun, listRunRecords, queryRunItems } from "@/lib/db";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { TRICKY_ANSWERS, writeTrickyRun } from "../support/export-fixtures";

describe("downloads (browser)", () => {
  const app = useBrowserApp({ viewport: { width: 1280, height: 900 } });
  let runId = 0;

  beforeAll(async () => {
    ({ runId } = await writeTrickyRun(app.db, 120));
  });

  it("downloads the CSV of the failing view", async () => {
    const { page, errors } = app.browser;
    await page.goto(`${app.baseURL}/runs/${runId}?filter=all`);
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

    const expected = await queryRunItems(app.db, runId, { filter: "failing", sort: "item", dir: "asc", page: 1 }, { pageSize: 10_000 });
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

  it("imports the run's seed results.jsonl from the Runs page, and reports a broken file by line without storing it", async () => {
    const { page, errors } = app.browser;
    const dir = mkdtempSync(join(tmpdir(), "skillboard-import-"));
    try {
      const source = await getRun(app.db, runId);
      expect(source.nErrors + source.nTimeouts).toBeGreaterThan(0);
      const seedFile = join(dir, "results.jsonl");
      const download = await fetch(`${app.baseURL}/api/runs/${runId}/results?format=seed`);
      expect(download.status).toBe(200);
      const text = await download.text();
      writeFileSync(seedFile, text);
      const brokenFile = join(dir, "broken.jsonl");
      const lines = text.trimEnd().split("\n");
      lines[2] = lines[2]!.replace(/"em": [0-9.]+/, '"em": "high"');
      writeFileSync(brokenFile, `${lines.join("\n")}\n`);
      const runsBefore = (await listRunRecords(app.db)).length;

      await page.goto(`${app.baseURL}/runs`);
      const form = page.getByRole("form", { name: "Import results" });
      await page.getByText("Import results", { exact: true }).click();
      await form.getByLabel("Results file").setInputFiles(brokenFile);
      await form.getByRole("button", { name: "Import" }).click();
      const alert = form.getByRole("alert");
      await expect.poll(() => alert.innerText(), { timeout: 15_000 }).toMatch(/line 3/);
      expect(await alert.innerText()).toMatch(/\bem\b/);
      expect((await listRunRecords(app.db)).length).toBe(runsBefore);
      // The refused upload is the one failed request the browser saw.
      expect(errors.splice(0)).toEqual([expect.stringMatching(/status of 400 .*\/api\/runs\/import\?fileName=broken\.jsonl/)]);

      await form.getByLabel("Results file").setInputFiles(seedFile);
      await form.getByLabel("Run name").fill("round trip");
      await form.getByRole("button", { name: "Import" }).click();
      await page.waitForURL((url) => /^\/runs\/\d+$/.test(url.pathname) && url.pathname !== `/runs/${runId}`, { timeout: 15_000 });
      const importedId = Number(new URL(page.url()).pathname.split("/").at(-1));
      await page.getByText("imported", { exact: true }).first().waitFor();
      const imported = await getRun(app.db, importedId);
      expect(imported).toMatchObject({ source: "imported", status: "completed", name: "round trip", nDone: source.nDone, nErrors: source.nErrors, nTimeouts: source.nTimeouts });
      expect(imported.emSum).toBeCloseTo(source.emSum, 9);
      // Nothing says which model produced it: it can seed a new run, but not be run again or retried here.
      const actions = page.getByRole("region", { name: "Run actions" });
      await actions.getByRole("link", { name: "Copy settings to a new run" }).waitFor();
      expect(await actions.getByRole("button", { name: "Run again" }).count()).toBe(0);
      expect(await actions.getByRole("button", { name: "Retry failed items" }).count()).toBe(0);
      // Its settings were never recorded: the page says so rather than showing defaults as if it ran with them.
      const configuration = page.locator("section", { has: page.getByRole("heading", { name: "Configuration" }) });
      expect(await configuration.innerText()).toContain("does not record the model or the settings");
      expect(await configuration.innerText()).not.toContain("Concurrency");
      const tokens = page.locator("section", { has: page.getByRole("heading", { name: "Tokens used" }) });
      expect(await tokens.innerText()).toContain("Not recorded: the imported file carries no token counts");
      await screenshot(page, "imported-run");
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
