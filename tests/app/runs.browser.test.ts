// The runs pages in a real browser against the production build: start a run from the New run form, watch
// it live (progress advancing, the chart drawing), cancel it (finished results kept), resume it to the end
// with the right counts; and never show or log the API key. The fake model server holds the calls past a
// limit the test raises (itemGate), so the run stands at known points: nothing races its end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { addSkillVersion, getRun, importDataset } from "@/lib/db";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { itemGate, makeItems } from "../support/rollout-fixtures";

const SECRET_KEY = "sk-test-secret-123";
const ITEMS = 300;
// The fake server answers "Answer <i>"; every 4th item has another gold answer, so it comes back wrong.
const isWrong = (index: number) => index % 4 === 0;
const EXPECTED_CORRECT = ITEMS - makeItems(ITEMS).filter((_, index) => isWrong(index)).length;
const CONCURRENCY = 4;

describe("runs pages (browser)", () => {
  // Items 0–7 are answered at first; the calls for the others wait until the test admits them.
  const gate = itemGate(8);
  let fake: FakeOpenAIServer | undefined;
  beforeAll(async () => {
    fake = await startFakeOpenAIServer({ faults: gate.faults });
  });
  afterAll(() => fake?.close());
  const app = useBrowserApp(() => ({
    env: { OPENAI_BASE_URL: fake!.baseURL, SKILLBOARD_MODEL: "test-model", OPENAI_API_KEY: SECRET_KEY },
    viewport: { width: 1280, height: 900 },
  }));

  beforeAll(async () => {
    const { db } = app;
    await importDataset(db, { name: "browser-dataset", fileName: "b.jsonl", format: "jsonl", hash: "browser-test", items: makeItems(ITEMS, isWrong) });
    await addSkillVersion(db, { name: "browser-skill", content: "Answer with the title of the first passage.", note: "browser test" });
    await addSkillVersion(db, { name: "browser-skill", content: "Answer with the first passage's title, nothing else.", note: "second" });
    await addSkillVersion(db, { name: "unused-skill", content: "Never run." });
  });

  it("starts a run, shows it live, cancels and resumes it to the right counts", async () => {
    const { page, errors } = app.browser;
    const pages: string[] = [];

    await page.goto(`${app.baseURL}/runs/new`);
    await expect(page.getByText("OpenAI-compatible server").first().isVisible()).resolves.toBe(true);
    pages.push(await page.content());
    await page.getByLabel("Dataset", { exact: true }).selectOption({ label: `browser-dataset (${ITEMS} items)` });
    await page.getByLabel("Skill version", { exact: true }).selectOption({ label: "browser-skill v1 — browser test" });
    // A bad value comes back as a message next to its field, and what was chosen stays chosen.
    await page.getByLabel("Concurrency", { exact: true }).fill("0");
    await page.getByRole("button", { name: "Start run", exact: true }).click();
    await page.getByText("Concurrency must be at least 1").waitFor({ timeout: 10_000 });
    await expect(page.getByLabel("Dataset", { exact: true }).inputValue()).resolves.not.toBe("");
    expect(await app.db.run.count()).toBe(0);
    await screenshot(page, "run-new-errors");
    await page.getByLabel("Concurrency", { exact: true }).fill(String(CONCURRENCY));
    await page.getByRole("button", { name: "Start run", exact: true }).click();

    await page.waitForURL(/\/runs\/\d+$/, { timeout: 15_000 });
    const runId = Number(new URL(page.url()).pathname.split("/").pop());
    await expect(page.getByRole("heading", { name: /Running accuracy/ }).isVisible()).resolves.toBe(true);

    // Live: the done count grows without a reload (8, then 20 once the test lets 8–19 through), the chart draws its line.
    await expect.poll(() => readDone(page), { timeout: 20_000 }).toBe(8);
    await page.locator(".recharts-line-curve").first().waitFor({ timeout: 10_000 });
    gate.admit(20);
    await expect.poll(() => readDone(page), { timeout: 20_000 }).toBe(20);
    // Items 20–23 are being asked: the run is mid-way, with every slot busy, when Cancel is clicked.
    await expect.poll(() => gate.held()).toBe(CONCURRENCY);
    await expect(page.getByTestId("run-status").innerText()).resolves.toBe("running");
    await screenshot(page, "run-mid");
    pages.push(await page.content());

    // Cancel: the status turns cancelled on its own, and the results finished so far are kept.
    await page.getByRole("button", { name: "Cancel run", exact: true }).click();
    await waitForStatus(page, "cancelled");
    const cancelled = await getRun(app.db, runId);
    expect(cancelled.nDone).toBe(20);
    expect(await app.db.runResult.count({ where: { runId } })).toBe(cancelled.nDone);
    expect(await readDone(page)).toBe(cancelled.nDone);

    // Resume: it runs the remaining items only and completes.
    gate.admit(Infinity);
    await page.getByRole("button", { name: "Resume run", exact: true }).click();
    await waitForStatus(page, "completed", 60_000);
    expect(await readDone(page)).toBe(ITEMS);
    await expect(page.getByTestId("items-done").innerText()).resolves.toBe(`${ITEMS} / ${ITEMS} items`);
    await expect(tileValue(page, "Correct")).resolves.toBe(String(EXPECTED_CORRECT));
    await expect(tileValue(page, "Wrong")).resolves.toBe(String(ITEMS - EXPECTED_CORRECT));
    await expect(tileValue(page, "Errors")).resolves.toBe("0");
    const done = await getRun(app.db, runId);
    expect(done).toMatchObject({ status: "completed", nDone: ITEMS, nErrors: 0, nTimeouts: 0 });
    expect(Math.round(done.emSum)).toBe(EXPECTED_CORRECT);
    // The resume did not redo what the cancelled execution finished: only the calls the cancel aborted (items 20–23)
    // were asked twice.
    expect(new Set(fake!.requests.map((request) => request.question)).size).toBe(ITEMS);
    expect(fake!.requests.length).toBe(ITEMS + CONCURRENCY);
    await expect(page.getByRole("button", { name: "Cancel run" }).count()).resolves.toBe(0);
    await screenshot(page, "run-end");
    pages.push(await page.content());

    // Run again with another skill version: same dataset and settings, a new run page; cancel that one while its
    // first calls are held.
    gate.admit(0);
    await page.getByLabel("Run again with").selectOption({ label: "browser-skill v2 — second" });
    await page.getByRole("button", { name: "Run again", exact: true }).click();
    await page.waitForURL((url) => /\/runs\/\d+$/.test(url.pathname) && url.pathname !== `/runs/${runId}`, { timeout: 15_000 });
    const rerunId = Number(new URL(page.url()).pathname.split("/").pop());
    await expect(page.locator("main").innerText()).resolves.toContain("browser-skill v2 on browser-dataset");
    expect((await getRun(app.db, rerunId)).config).toEqual(done.config);
    await expect.poll(() => gate.held()).toBe(CONCURRENCY);
    await page.getByRole("button", { name: "Cancel run", exact: true }).click();
    await waitForStatus(page, "cancelled");
    expect((await getRun(app.db, rerunId)).nDone).toBe(0);
    pages.push(await page.content());

    // "Copy settings to a new run" opens the form filled from this run.
    await page.goto(`${app.baseURL}/runs/new?from=${runId}`);
    await expect(page.getByText(`Settings copied from run #${runId}`).isVisible()).resolves.toBe(true);
    await expect(page.getByLabel("Concurrency", { exact: true }).inputValue()).resolves.toBe(String(CONCURRENCY));
    await expect(page.getByLabel("Dataset", { exact: true }).inputValue()).resolves.toBe(String(done.datasetId));

    // The list and the comparison show the finished run.
    await page.goto(`${app.baseURL}/runs?sort=em&dir=desc`);
    await expect(page.getByRole("link", { name: `#${runId}`, exact: true }).isVisible()).resolves.toBe(true);
    await screenshot(page, "runs-list");
    pages.push(await page.content());
    // Sorting and filtering live in the URL: a header link, and a select that applies itself.
    await page.getByRole("link", { name: "F1", exact: true }).click();
    await page.waitForURL(/sort=f1&dir=desc/);
    await page.getByLabel("Skill", { exact: true }).selectOption({ label: "unused-skill" });
    await page.waitForURL(/skillId=\d+/);
    await expect(page.getByText("No runs match these filters.").isVisible()).resolves.toBe(true);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("f1");
    await page.goto(`${app.baseURL}/compare`);
    await expect(page.getByRole("heading", { name: "Compare", exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: `#${runId}`, exact: true }).isVisible()).resolves.toBe(true);
    await screenshot(page, "compare");
    pages.push(await page.content());
    const live = await (await fetch(`${app.baseURL}/api/runs/${runId}/live`)).text();

    for (const html of [...pages, live]) expect(html).not.toContain(SECRET_KEY);
    expect(app.server.logs()).not.toContain(SECRET_KEY);
    expect(errors).toEqual([]);
  }, 180_000);
});

async function readDone(page: Page): Promise<number> {
  return Number(await page.getByRole("progressbar", { name: "Items done" }).getAttribute("aria-valuenow"));
}

async function waitForStatus(page: Page, status: string, timeoutMs = 20_000): Promise<void> {
  await page.getByTestId("run-status").filter({ hasText: new RegExp(`^${status}$`) }).waitFor({ timeout: timeoutMs });
}

function tileValue(page: Page, label: string): Promise<string> {
  return page.locator("dl div").filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) }).locator("dd").innerText();
}
