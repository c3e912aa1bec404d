// The run page as a user watches it, in a real browser against the production build: mid-run, the item table fills
// by itself (no "0 items" next to a progress panel at 37/80), while a filtered view holds new results behind a
// button, and no link in view makes Next ask the server for a prefetch; a run that finished in under a second shows
// its measured duration and rates; the actions card keeps no empty line for a message it does not have.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page, Request } from "playwright-core";
import { addSkillVersion, getRun, importDataset, newWorkerId, type Db } from "@/lib/db";
import { createRunFor, executeRun } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { BUILD_TIMEOUT_MS, type AppServer } from "../support/app-server";
import { startBrowserApp, type BrowserApp } from "../support/browser-app";
import { screenshot, type BrowserSession } from "../support/browser";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, makeItems } from "../support/rollout-fixtures";

describe("run page (browser)", () => {
  let fake: FakeOpenAIServer | undefined;
  let app: BrowserApp | undefined;
  let server: AppServer | undefined;
  let browser: BrowserSession | undefined;
  let db: Db | undefined;

  beforeAll(async () => {
    // 80 items at ~150 ms each, 2 at a time: about 6 s of running to watch.
    fake = await startFakeOpenAIServer({ latencyMs: 150 });
    app = await startBrowserApp({ env: { OPENAI_BASE_URL: fake.baseURL, SKILLBOARD_MODEL: "test-model" }, viewport: { width: 1280, height: 900 } });
    ({ server, db, browser } = app);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  }, 30_000);

  it("fills the item table by itself mid-run, and holds new results back on a filtered view", async () => {
    const { page, errors } = browser!;
    // Every answer is right, so every new result also belongs in the "Correct" view below. The app's worker runs it.
    const run = await createStoredRun(db!, { items: makeItems(80), baseURL: fake!.baseURL, settings: { concurrency: 2, maxRetries: 0 } });
    // Opened once it runs: no status change reloads the table before it finishes, so whatever fills it is new results.
    await expect.poll(async () => (await getRun(db!, run.id)).status, { timeout: 10_000 }).toBe("running");
    // Next would ask the server for each link in view (and again after every reload of the table), to learn only that
    // the page behind it cannot be prefetched: the app's links do not prefetch.
    const prefetches: string[] = [];
    const onRequest = (request: Request) => {
      if (request.headers()["next-router-prefetch"]) prefetches.push(request.url());
    };
    page.on("request", onRequest);
    await page.goto(`${server!.baseURL}/runs/${run.id}`);
    await expect(page.getByTestId("run-status").innerText()).resolves.toBe("running");
    const items = page.getByRole("region", { name: "Items" });
    const rows = items.locator("tbody tr");
    const atLoad = await rows.count();

    // New results come into the first page of all items without a click, while the run is still going.
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(atLoad);
    await expect(page.getByTestId("run-status").innerText()).resolves.toBe("running");
    expect((await getRun(db!, run.id)).status).toBe("running");
    await expect(items.getByRole("button", { name: /new results? · show/ }).count()).resolves.toBe(0);
    await expect(items.locator("h2 + span").innerText()).resolves.toMatch(/^[1-9]\d* items/);
    await screenshot(page, "run-page-mid");
    page.off("request", onRequest);
    expect(prefetches).toEqual([]);

    // On a filtered view the rows the reader is looking at stay put: new results wait behind the button.
    await page.goto(`${server!.baseURL}/runs/${run.id}?filter=correct`);
    const shown = await rows.count();
    expect(shown).toBeGreaterThan(0);
    const offer = items.getByRole("button", { name: /new results? · show/ });
    await offer.waitFor({ timeout: 10_000 });
    expect(await rows.count()).toBe(shown);
    await offer.click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThan(shown);

    await page.getByTestId("run-status").filter({ hasText: /^completed$/ }).waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
  }, 90_000);

  it("shows a run that took under a second with its measured duration and rates", async () => {
    const { page, errors } = browser!;
    const dataset = await importDataset(db!, { name: "five", fileName: "five.jsonl", format: "jsonl", hash: "five", items: makeItems(5) });
    const { version } = await addSkillVersion(db!, { name: "quick-skill", content: "Answer with the passage title." });
    // On the offline baseline, executed here (leased to this process, so the app's worker leaves it alone).
    const workerId = newWorkerId();
    const created = await createRunFor(db!, {
      datasetId: dataset.id, skillVersionId: version.id, config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse({}) }, leaseFor: workerId,
    });
    const run = await executeRun(db!, created.id, { workerId });
    expect(run).toMatchObject({ status: "completed", nDone: 5, promptTokens: 0, completionTokens: 0 });
    expect(run.activeMs).toBeGreaterThan(0);
    expect(run.activeMs).toBeLessThan(1000);

    await page.goto(`${server!.baseURL}/runs/${run.id}`);
    await expect(tileValue(page, "Elapsed")).resolves.toMatch(/^0\.\d{1,2} s$/);
    const perMinute = Number((await tileValue(page, "Rate (items/min)")).replace(/,/g, ""));
    expect(perMinute).toBeCloseTo((5 * 60_000) / run.activeMs, -1);
    // The baseline uses no tokens: a measured 0, not "unknown".
    await expect(tileValue(page, "Tokens / s")).resolves.toBe("0");
    await expect(page.getByRole("row", { name: /Tokens per second/ }).innerText()).resolves.toMatch(/\t0$/);

    // No message, no line kept for one: the actions card ends with its buttons.
    const actions = page.getByRole("region", { name: "Run actions" });
    const message = actions.locator("[aria-live]");
    await expect(message.count()).resolves.toBe(1);
    expect((await message.boundingBox())?.height).toBe(0);
    expect(await bottomGap(actions, actions.locator("div").first())).toBeLessThanOrEqual(16);
    await screenshot(page, "run-page-sub-second");
    expect(errors).toEqual([]);
  });
});

function tileValue(page: Page, label: string): Promise<string> {
  return page.locator("dl div").filter({ has: page.locator("dt", { hasText: new RegExp(`^${label.replace(/[()/]/g, "\\$&")}$`) }) }).locator("dd").innerText();
}

/** Pixels between the bottom of `inner` and the bottom of `outer` (padding and anything under `inner`). */
async function bottomGap(outer: Locator, inner: Locator): Promise<number> {
  const [a, b] = await Promise.all([outer.boundingBox(), inner.boundingBox()]);
  return a!.y + a!.height - (b!.y + b!.height);
}
