// The home page of a fresh install in headless Chromium: it renders, the New run form already holds the obvious
// choices (the only dataset that is not a split part, the latest version of the only skill that a person added, not one
// the demo optimisation made), and the demo runs in one click.
import { describe, expect, it } from "vitest";
import { getRun, listDatasets, listSkillVersions } from "@/lib/db";
import { DEMO_DATASET_NAME, DEMO_SKILL_NAME } from "@/lib/db/demo";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";

// A credential the server is given but must never print or send to the browser.
const CANARY_KEY = "sk-skillboard-test-canary-4b1e7c";

describe("home page (browser)", () => {
  const app = useBrowserApp({ env: { OPENAI_API_KEY: CANARY_KEY } });

  it("renders the Skillboard brand and layout without errors", async () => {
    const { page, errors } = app.browser;
    const response = await page.goto(`${app.baseURL}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain("Skillboard");
    await expect(page.locator("header").first().innerText()).resolves.toContain("Skillboard");
    await expect(page.locator("main").first().isVisible()).resolves.toBe(true);

    await screenshot(page, "home");
    expect(errors).toEqual([]);
    expect(await page.content()).not.toContain(CANARY_KEY);
    expect(app.server.logs()).not.toContain(CANARY_KEY);
  });

  it("opens the New run form on the only dataset and the latest version of the only skill (not the demo optimisation's candidates)", async () => {
    const { page, errors } = app.browser;
    const [dataset] = await listDatasets(app.db);
    const latest = (await listSkillVersions(app.db)).filter((version) => version.skillName === DEMO_SKILL_NAME && version.originOptimizationId === null).at(-1)!;
    expect(latest.version).toBe(2);
    await page.goto(`${app.baseURL}/runs/new`);
    await expect(page.getByLabel("Dataset", { exact: true }).inputValue()).resolves.toBe(String(dataset!.id));
    await expect(page.getByLabel("Skill version", { exact: true }).inputValue()).resolves.toBe(String(latest.id));
    expect(errors).toEqual([]);
  });

  it("runs the demo in one click: the demo dataset and skill on the offline baseline, then its run page", async () => {
    const { page, errors } = app.browser;
    await page.goto(`${app.baseURL}/`);
    await screenshot(page, "home-demo");
    await page.getByRole("button", { name: "Run the demo" }).click();
    await page.waitForURL(/\/runs\/\d+$/, { timeout: 15_000 });
    const runId = Number(new URL(page.url()).pathname.split("/").pop());
    await page.getByTestId("run-status").filter({ hasText: /^completed$/ }).waitFor({ timeout: 30_000 });

    const run = await getRun(app.db, runId);
    const [dataset] = await listDatasets(app.db);
    expect(dataset!.name).toBe(DEMO_DATASET_NAME);
    // The server has an OpenAI key, but the demo runs on the baseline: no call, no cost.
    const latest = (await listSkillVersions(app.db)).filter((version) => version.skillName === DEMO_SKILL_NAME && version.originOptimizationId === null).at(-1)!;
    expect(run).toMatchObject({ status: "completed", backend: "baseline", datasetId: dataset!.id, skillVersionId: latest.id, nDone: dataset!.itemCount });
    await expect(page.locator("main").innerText()).resolves.toContain(`${DEMO_SKILL_NAME} v2 on ${DEMO_DATASET_NAME} · offline baseline (no LLM)`);
    await screenshot(page, "home-demo-run");

    // With a run in the database the home page lists it instead of offering the demo again.
    await page.goto(`${app.baseURL}/`);
    await expect(page.getByRole("link", { name: `Run #${runId}` }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Run the demo" }).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    expect(app.server.logs()).not.toContain(CANARY_KEY);
  }, 60_000);
});
