// Cost and the response cache as a user sees them, in a real browser against the production build: the runs list's
// Cost column prices a run at its model's list price or the server's own table, says "unknown" for a model without a
// price, and shows a fully cached re-run as free; Compare shows each run's cost and the difference; the New run form
// shows what the response cache holds and clears it after a confirm step, reading 0 afterwards.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  addSkillVersion, createOptimization, importDataset, linkOptimizationRun, newWorkerId, responseCacheSize, saveOptimizerCall, type RunRecord,
} from "@/lib/db";
import { createRunFor, executeRun } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { formatCost } from "@/app/_lib/format";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { makeItems } from "../support/rollout-fixtures";

const ITEMS = 6;
// The server's own price table: a model no list price covers.
const configDir = mkdtempSync(join(tmpdir(), "skillboard-cost-"));
const configPath = join(configDir, "skillboard.config.json");
writeFileSync(configPath, JSON.stringify({ prices: { "house-model": { input: 10, output: 20 } } }));

describe("cost and the response cache (browser)", () => {
  let fake: FakeOpenAIServer | undefined;
  beforeAll(async () => {
    fake = await startFakeOpenAIServer();
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(configDir, { recursive: true, force: true });
  });
  const app = useBrowserApp(() => ({ env: { OPENAI_BASE_URL: fake!.baseURL, SKILLBOARD_MODEL: "test-model", SKILLBOARD_CONFIG: configPath }, viewport: { width: 1600, height: 1000 } }));

  let listed: RunRecord; // gpt-4.1-mini, cache on: its replies fill the cache
  let cached: RunRecord; // the same requests again: every reply from the cache
  let unpriced: RunRecord;
  let house: RunRecord;
  let skill: { skillId: number; id: number };
  let datasetId: number;
  beforeAll(async () => {
    const db = app.db;
    const dataset = await importDataset(db, { name: "priced", fileName: "priced.jsonl", format: "jsonl", hash: "priced", items: makeItems(ITEMS) });
    const { version } = await addSkillVersion(db, { name: "cost-skill", content: "Answer with the passage title." });
    skill = version;
    datasetId = dataset.id;
    // Executed here (leased to this process, so the app's worker leaves them alone), one after the other.
    const run = async (model: string, cache: boolean) => {
      const workerId = newWorkerId();
      const created = await createRunFor(db, {
        datasetId: dataset.id, skillVersionId: version.id, leaseFor: workerId,
        config: { model: { backend: "openai", model, baseURL: fake!.baseURL }, settings: RunSettingsSchema.parse({ cache }) },
      });
      return executeRun(db, created.id, { workerId });
    };
    listed = await run("gpt-4.1-mini", true);
    cached = await run("gpt-4.1-mini", true);
    unpriced = await run("my-local-llama", false);
    house = await run("house-model", false);
  });

  const costCell = (page: Page, runId: number) =>
    page.getByRole("row").filter({ has: page.getByRole("link", { name: `#${runId}`, exact: true }) }).locator("td").last();

  it("lists each run's cost: the list price, the server's table, free when cached, unknown without a price", async () => {
    const { page, errors } = app.browser;
    expect(listed.promptTokens).toBeGreaterThan(0);
    expect(cached.promptTokens + cached.completionTokens).toBe(0);
    await page.goto(`${app.baseURL}/runs`);
    await expect(page.getByRole("columnheader", { name: "Cost" }).isVisible()).resolves.toBe(true);
    const listPrice = (listed.promptTokens * 0.4 + listed.completionTokens * 1.6) / 1_000_000;
    await expect(costCell(page, listed.id).innerText()).resolves.toBe(formatCost(listPrice));
    expect(formatCost(listPrice)).toMatch(/^\$0\.\d{4}$/);
    const housePrice = (house.promptTokens * 10 + house.completionTokens * 20) / 1_000_000;
    await expect(costCell(page, house.id).innerText()).resolves.toBe(formatCost(housePrice));
    await expect(costCell(page, cached.id).innerText()).resolves.toBe("$0.00");
    await expect(costCell(page, unpriced.id).innerText()).resolves.toBe("unknown");

    // Sorted by cost, most expensive first, unknown last.
    await page.getByRole("link", { name: "Cost", exact: true }).click();
    await page.waitForURL(/sort=cost/);
    const order = await page.locator("tbody tr td:nth-child(2)").allInnerTexts();
    expect(order).toEqual([`#${house.id}`, `#${listed.id}`, `#${cached.id}`, `#${unpriced.id}`]);
    await screenshot(page, "runs-cost-column");
    expect(errors).toEqual([]);
  });

  it("marks each cached item in the explorer and says on the item view which run first produced its reply", async () => {
    const { page, errors } = app.browser;
    await page.goto(`${app.baseURL}/runs/${cached.id}?filter=all`);
    const rows = page.getByRole("region", { name: "Items" }).locator("tbody tr");
    await expect(rows.first().getByText("cached", { exact: true }).isVisible()).resolves.toBe(true);
    await rows.first().locator("td:nth-child(2) a").click();
    await page.waitForURL(/\/items\//);
    const note = page.getByTestId("cached-reply");
    await expect(note.innerText()).resolves.toContain(`first produced by run #${listed.id}`);
    await note.getByRole("link", { name: `run #${listed.id}` }).click();
    await page.waitForURL(new RegExp(`/runs/${listed.id}$`));
    // The run that produced the replies has none from the cache.
    await page.goto(`${app.baseURL}/runs/${listed.id}?filter=all`);
    await expect(page.getByRole("region", { name: "Items" }).locator("tbody tr").first().getByText("cached", { exact: true }).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });

  it("shows each compared run's cost and the difference from the reference, unknown when a side has no price", async () => {
    const { page, errors } = app.browser;
    const listPrice = (listed.promptTokens * 0.4 + listed.completionTokens * 1.6) / 1_000_000;
    await page.goto(`${app.baseURL}/compare?runs=${listed.id},${cached.id},${unpriced.id}`);
    const runs = page.getByRole("table", { name: "Compared runs" });
    const runCost = (runId: number) => runs.getByRole("row").filter({ has: page.getByRole("link", { name: `#${runId}`, exact: true }) }).locator("td").last();
    await expect(runCost(listed.id).innerText()).resolves.toBe(formatCost(listPrice));
    await expect(runCost(cached.id).innerText()).resolves.toBe("$0.00");
    await expect(runCost(unpriced.id).innerText()).resolves.toBe("unknown");
    // The cached re-run saved the whole of the first run's cost.
    await expect(page.getByTestId(`difference-${cached.id}`).innerText()).resolves.toContain(formatCost(-listPrice, { signed: true }));
    expect(formatCost(-listPrice, { signed: true })).toMatch(/^-\$0\.\d{4}$/);
    await expect(page.getByTestId(`difference-${unpriced.id}`).innerText()).resolves.toContain("unknown");
    expect(errors).toEqual([]);
  });

  it("shows an optimisation's cost on the Optimise list and its page: target runs plus optimizer calls, unknown without a price", async () => {
    const { page, errors } = app.browser;
    // Finished optimisations (leased to no worker of the app), as the engine leaves them: linked runs and optimizer calls.
    const optimization = async (name: string, optimizerModel: string) => {
      const created = await createOptimization(app.db, {
        name, skillId: skill.skillId, initialVersionId: skill.id, trainDatasetId: datasetId, valDatasetId: datasetId, testDatasetId: null, status: "completed",
        settingsJson: "{}", targetConfigJson: JSON.stringify({ model: { backend: "openai", model: "gpt-4.1-mini" } }),
        optimizerJson: JSON.stringify({ backend: "openai", model: optimizerModel }), capsJson: JSON.stringify({ maxTargetCalls: 100, maxOptimizerTokens: 1_000_000 }),
      });
      await linkOptimizationRun(app.db, created.id, "baseline", listed.id);
      await linkOptimizationRun(app.db, created.id, "step:0001/val", cached.id);
      await saveOptimizerCall(app.db, created.id, { key: "step:0001/analyst/000", stepKey: "step:0001", stage: "analyst", system: "S", user: "U", reply: "R", promptTokens: 100_000, completionTokens: 10_000, latencyMs: 1, attempts: 1 });
      return created;
    };
    const priced = await optimization("priced-opt", "gpt-4.1");
    const unpricedOpt = await optimization("unpriced-opt", "my-local-optimizer");
    // The cached run cost nothing; 100k prompt and 10k completion optimizer tokens at gpt-4.1's 2 / 8 per million.
    const target = (listed.promptTokens * 0.4 + listed.completionTokens * 1.6) / 1_000_000;
    const optimizer = (100_000 * 2 + 10_000 * 8) / 1_000_000;

    await page.goto(`${app.baseURL}/optimize`);
    const spend = (name: string) => page.getByRole("row").filter({ has: page.getByRole("link", { name: new RegExp(`^${name} \\(#`) }) }).locator("td").nth(9);
    await expect(spend("priced-opt").innerText()).resolves.toContain(formatCost(target + optimizer));
    await expect(spend("unpriced-opt").innerText()).resolves.toContain("unknown");

    await page.goto(`${app.baseURL}/optimize/${priced.id}`);
    const card = page.getByRole("region", { name: "Spend against caps" });
    await expect(card.innerText()).resolves.toContain(`cost ${formatCost(target)}`);
    await expect(card.innerText()).resolves.toContain(`cost ${formatCost(optimizer)}`);
    await expect(page.getByTestId("spend-cost").innerText()).resolves.toBe(`Cost: ${formatCost(target + optimizer)}`);
    await page.goto(`${app.baseURL}/optimize/${unpricedOpt.id}`);
    await expect(page.getByTestId("spend-cost").innerText()).resolves.toMatch(/^Cost: unknown · no price is known for a model it used/);
    expect(errors).toEqual([]);
  });

  it("shows the response cache's size on New run and clears it after a confirm step", async () => {
    const { page, errors } = app.browser;
    const before = await responseCacheSize(app.db);
    expect(before.entries).toBe(ITEMS);
    await page.goto(`${app.baseURL}/runs/new`);
    const size = page.getByTestId("response-cache-size");
    await expect(size.innerText()).resolves.toMatch(new RegExp(`^The cache holds ${ITEMS} stored replies \\(\\d+(\\.\\d)? (B|KB)\\)\\.$`));

    // The first click only asks; "Keep it" leaves the cache as it was.
    await page.getByRole("button", { name: "Clear response cache" }).click();
    await page.getByRole("button", { name: "Keep it" }).click();
    expect((await responseCacheSize(app.db)).entries).toBe(ITEMS);

    await page.getByRole("button", { name: "Clear response cache" }).click();
    await expect(page.getByRole("group", { name: "Response cache" }).innerText()).resolves.toContain(`Remove all ${ITEMS} stored replies?`);
    await page.getByRole("button", { name: "Yes, clear the cache" }).click();
    await page.getByText(`Cleared the response cache: ${ITEMS} stored replies removed.`).waitFor();
    await expect.poll(() => size.innerText()).toBe("The cache holds 0 stored replies (0 B).");
    await expect(responseCacheSize(app.db)).resolves.toEqual({ entries: 0, bytes: 0 });
    await expect(page.getByRole("button", { name: "Clear response cache" }).isDisabled()).resolves.toBe(true);
    // And after a reload, from the server.
    await page.reload();
    await expect(page.getByTestId("response-cache-size").innerText()).resolves.toBe("The cache holds 0 stored replies (0 B).");
    await screenshot(page, "new-run-cache-cleared");
    expect(errors).toEqual([]);
  });
});
