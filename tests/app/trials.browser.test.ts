// Repeated trials as a user sees them, in a real browser against the production build and a seeded stochastic model:
// the New run form's "Trials per item", the run page's trials panel (always right / always wrong / flaky, pass@k), the
// explorer's Flaky filter with a trial on each row, and the item view with every trial side by side.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSkillVersion, getRun, importDataset } from "@/lib/db";
import { consistencyOf } from "@/lib/runs/trials";
import { screenshot } from "../support/browser";
import { useBrowserApp } from "../support/browser-app";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { makeItems } from "../support/rollout-fixtures";
import { rightSamples, stochasticAnswer } from "../support/stochastic-answer";

const ITEMS = 24;
const K = 3;

describe("repeated trials (browser)", () => {
  let fake: FakeOpenAIServer | undefined;
  beforeAll(async () => {
    fake = await startFakeOpenAIServer({ answer: stochasticAnswer() });
  });
  afterAll(() => fake?.close());
  const app = useBrowserApp(() => ({
    env: { OPENAI_BASE_URL: fake!.baseURL, SKILLBOARD_MODEL: "test-model" },
    viewport: { width: 1280, height: 900 },
  }));

  const items = makeItems(ITEMS);
  const flakyIds = items.filter((_, index) => consistencyOf(rightSamples(index, K), K) === "flaky").map((item) => item.id);
  const alwaysRight = items.filter((_, index) => rightSamples(index, K) === K).length;

  beforeAll(async () => {
    await importDataset(app.db, { name: "trials-dataset", fileName: "t.jsonl", format: "jsonl", hash: "trials-test", items });
    await addSkillVersion(app.db, { name: "trials-skill", content: "Answer with the title of the first passage.", note: "trials" });
  });

  it("starts a run with 3 trials, shows its consistency, filters the flaky items and shows every trial of one", async () => {
    const { page, errors } = app.browser;
    expect(flakyIds.length).toBeGreaterThan(2);

    await page.goto(`${app.baseURL}/runs/new`);
    await page.getByLabel("Dataset", { exact: true }).selectOption({ label: `trials-dataset (${ITEMS} items)` });
    await page.getByLabel("Skill version", { exact: true }).selectOption({ label: "trials-skill v1 — trials" });
    await page.getByLabel("Trials per item", { exact: true }).fill(String(K));
    await page.getByRole("button", { name: "Start run", exact: true }).click();
    await page.waitForURL(/\/runs\/\d+$/, { timeout: 15_000 });
    const runId = Number(new URL(page.url()).pathname.split("/").pop());
    await page.getByTestId("run-status").filter({ hasText: /^completed$/ }).waitFor({ timeout: 30_000 });
    const run = await getRun(app.db, runId);
    expect(run).toMatchObject({ nDone: ITEMS * K, itemsTotal: ITEMS * K });
    expect(run.config.settings.trials).toBe(K);

    // The progress counts trials, and the trials panel says how consistent the items were.
    await expect(page.getByTestId("items-done").innerText()).resolves.toBe(`${ITEMS * K} / ${ITEMS * K} trials`);
    const panel = page.getByRole("region", { name: `Repeated trials: ${K} per item` });
    await expect(panel.locator("div", { has: page.getByText("Always right", { exact: true }) }).locator("dd").innerText()).resolves.toBe(String(alwaysRight));
    await expect(panel.locator("div", { has: page.getByText("Flaky (sometimes right)", { exact: true }) }).locator("dd").innerText()).resolves.toBe(String(flakyIds.length));
    await expect(panel.getByText(`pass@${K}`, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("heading", { name: "Running accuracy by trials completed" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: "results.jsonl (seed, trial 1 only)" }).first().isVisible()).resolves.toBe(true);
    await screenshot(page, "trials-run-page");

    // The flaky count opens the explorer's Flaky filter: every trial of exactly the flaky items, each row naming its trial.
    await panel.getByRole("link", { name: String(flakyIds.length) }).click();
    await page.waitForURL(/filter=flaky/);
    const explorer = page.getByRole("region", { name: "Items" });
    await expect(explorer.getByRole("button", { name: /^Flaky/ }).getAttribute("aria-pressed")).resolves.toBe("true");
    const rows = explorer.locator("tbody tr");
    await expect(rows.count()).resolves.toBe(flakyIds.length * K);
    const shownIds = await rows.locator("td:first-child a").allInnerTexts();
    expect(new Set(shownIds)).toEqual(new Set(flakyIds));
    await expect(rows.first().locator("td:first-child").innerText()).resolves.toContain("trial 1");
    await screenshot(page, "trials-flaky-filter");

    // The item view: every trial side by side, one right and one wrong at least, and a link to each trial's own page.
    await rows.first().locator("td:nth-child(2) a").click();
    await page.waitForURL(/\/items\//);
    const trials = page.getByRole("region", { name: /^Trials: \d of 3 right/ });
    await expect(trials.locator("tbody tr").count()).resolves.toBe(K);
    await expect(trials.getByText("flaky: sometimes right").isVisible()).resolves.toBe(true);
    const statuses = await trials.locator("tbody .badge").allInnerTexts();
    expect(statuses).toContain("correct");
    expect(statuses).toContain("wrong");
    await trials.getByRole("link", { name: "Trial 2" }).click();
    await page.waitForURL(/trial=2/);
    await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toContain(`trial 2 of ${K}`);
    await expect(page.getByRole("region", { name: /^Trials:/ }).getByText("2 (shown)").isVisible()).resolves.toBe(true);
    await screenshot(page, "trials-item-view");
    // The next row of the Flaky view is the same item's third trial.
    await page.getByRole("navigation", { name: "Item navigation" }).getByRole("button", { name: /Next item/ }).click();
    await page.waitForURL(/trial=3/);
    expect(errors).toEqual([]);
  }, 120_000);
});
