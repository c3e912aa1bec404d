// The demo optimisation of a fresh install, in a real browser: the seeded optimisation of the demo skill on a split of
// the demo dataset, labelled as recorded with scripted models, opens from the list, its page and a step page at once.
// And the Optimise list's import form: the zip of a SkillOpt output directory becomes an optimisation; a broken zip
// is an error naming it, and nothing is stored.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listOptimizations, listOptimizationSteps } from "@/lib/db";
import { DEMO_DATASET_NAME, DEMO_SKILL_NAME } from "@/lib/db/demo";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { makeZip } from "../support/zip-fixtures";

describe("the demo optimisation (browser)", () => {
  const app = useBrowserApp({ viewport: { width: 1280, height: 900 } });

  it("is on a fresh database: its list row, its page and a step page open, labelled as recorded with scripted models", async () => {
    const { page, errors } = app.browser;
    const [demo] = await listOptimizations(app.db);
    expect(demo?.name).toMatch(/recorded with scripted models/);

    await page.goto(`${app.baseURL}/optimize`);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: `${demo!.name} (#${demo!.id})`, exact: true }) });
    const text = await row.innerText();
    expect(text).toContain(`${DEMO_SKILL_NAME} v1`);
    expect(text).toContain(`${DEMO_DATASET_NAME} · train`);
    expect(text).toContain("recorded with scripted models");
    expect(text).toContain("6 / 6");
    await screenshot(page, "optimize-demo-list");

    await row.getByRole("link", { name: `${demo!.name} (#${demo!.id})`, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/optimize/${demo!.id}`);
    await expect(page.getByTestId("models-note").innerText()).resolves.toContain("recorded with the test model server's scripted models");
    await expect(page.getByTestId("optimization-status").getAttribute("data-status")).resolves.toBe("completed");
    await expect(page.getByRole("heading", { name: /Validation score/ }).isVisible()).resolves.toBe(true);
    const stages = await listOptimizationSteps(app.db, demo!.id);
    await expect(page.getByTestId("stage-row").count()).resolves.toBe(stages.length);
    // The lineage: versions of the demo skill made by the optimisation, after the demo's own v1 and v2.
    const lineage = page.getByRole("region", { name: "Version lineage" });
    await expect(lineage.getByRole("link", { name: "v1", exact: true }).isVisible()).resolves.toBe(true);
    await expect(lineage.getByRole("link", { name: "v3", exact: true }).isVisible()).resolves.toBe(true);
    await screenshot(page, "optimize-demo");

    // An accepted step: its gate, its ranked edits with the demo items behind them, the diff, and its calls' prompts on demand.
    const accepted = stages.find((stage) => stage.action === "accept_new_best")!;
    await page.getByRole("link", { name: accepted.key, exact: true }).click();
    await page.waitForURL(/\/steps\//);
    await expect(page.getByTestId("gate-decision").innerText()).resolves.toBe("accept new best");
    const edits = page.getByRole("table", { name: "Ranked edits" }).locator("tbody tr");
    await expect(edits.count()).resolves.toBeGreaterThan(0);
    await expect(edits.first().innerText()).resolves.toMatch(/demo-\d{3}/);
    await expect(page.getByRole("heading", { name: new RegExp(`^Skill diff: ${DEMO_SKILL_NAME} v\\d+ → ${DEMO_SKILL_NAME} v\\d+$`) }).isVisible()).resolves.toBe(true);
    const call = page.getByTestId("optimizer-call").first();
    await call.getByText("Prompt and reply").click();
    await call.getByTestId("call-reply").waitFor({ timeout: 10_000 });
    await expect(call.innerText()).resolves.toContain("## Current Skill");
    await screenshot(page, "optimize-demo-step");

    // A step after epoch 1's slow update (its placeholder inherited the score): its gate panel has the paired statistics.
    await page.goto(`${app.baseURL}/optimize/${demo!.id}/steps/${encodeURIComponent("step:0003")}`);
    await expect(page.getByTestId("fixed-broken").innerText()).resolves.toMatch(/^\+\d+ \/ −\d+$/);
    await expect(page.getByText(/^The current skill inherited its val score .* it was rolled out on val for the statistics only/).isVisible()).resolves.toBe(true);
    await screenshot(page, "optimize-demo-step-after-slow-update");

    // A step whose failure and success patches merged: the tree from the ranking down to the analyst calls.
    const merged = (await app.db.optimizerCall.findFirstOrThrow({ where: { optimizationId: demo!.id, key: { contains: "/merge/final/" } } })).stepKey;
    await page.goto(`${app.baseURL}/optimize/${demo!.id}/steps/${encodeURIComponent(merged)}`);
    const tree = page.getByTestId("merge-tree");
    await expect(page.getByRole("heading", { name: "Merge tree" }).isVisible()).resolves.toBe(true);
    const ranking = tree.locator(":scope > li").first();
    await expect(ranking.locator(":scope > code").innerText()).resolves.toBe("ranking");
    const final = ranking.locator(":scope > ul > li").first();
    await expect(final.locator(":scope > code").innerText()).resolves.toBe("merge/final/L0/000");
    await expect(final.locator(":scope > ul > li > code").allInnerTexts()).resolves.toEqual([expect.stringMatching(/^merge\/failure\/L\d\/000$/), expect.stringMatching(/^merge\/success\/L\d\/000$/)]);
    const leaves = await tree.locator("code").allInnerTexts();
    expect(leaves.filter((key) => /^batch:0\/analyst\/failure\/\d{3}$/.test(key)).length).toBeGreaterThanOrEqual(2);
    expect(leaves.filter((key) => /^batch:0\/analyst\/success\/\d{3}$/.test(key)).length).toBeGreaterThanOrEqual(2);
    await tree.scrollIntoViewIfNeeded();
    await screenshot(page, "optimize-demo-merge-tree");
    expect(errors).toEqual([]);
  }, 120_000);

  it("imports the zip of a SkillOpt output directory from the list, and says what is wrong with a broken one", async () => {
    const { page, errors } = app.browser;
    const before = await app.db.optimization.count();
    await page.goto(`${app.baseURL}/optimize`);
    const form = page.getByRole("form", { name: "Import SkillOpt output" });
    // 24 MB with its rollout files: over Next's 10 MB body buffer and the old server action's limit.
    const big = makeZip({ dir: join("tests", "fixtures", "skillopt-output"), prefix: "skillopt-output/", random: { "skillopt-output/steps/step_0001/rollouts/rollout.bin": 24 * 1024 * 1024 } });
    expect(big.length).toBeGreaterThan(24 * 1024 * 1024);
    await form.getByLabel("SkillOpt output (.zip)").setInputFiles({ name: "topic-run.zip", mimeType: "application/zip", buffer: big });
    const result = page.getByTestId("import-result");
    // The progress bar shows while the bytes go up (a loopback upload is quick: a watcher notes that it appeared).
    await result.evaluate((node) => {
      const seen = window as unknown as { sawUploadProgress?: boolean };
      new MutationObserver(() => {
        if (node.querySelector('progress[aria-label="Upload progress"]')) seen.sawUploadProgress = true;
      }).observe(node, { childList: true, subtree: true });
    });
    await form.getByRole("button", { name: "Import", exact: true }).click();
    await result.getByRole("link", { name: "Open it" }).or(result.getByRole("alert")).waitFor({ timeout: 60_000 });
    await expect(result.innerText()).resolves.toMatch(/^Imported topic-run\.zip as optimisation #\d+: \d+ stages, \d+ new versions of topic-run/);
    await expect(page.evaluate(() => (window as unknown as { sawUploadProgress?: boolean }).sawUploadProgress)).resolves.toBe(true);
    expect(await app.db.optimization.count()).toBe(before + 1);
    await expect(page.getByRole("table", { name: "Optimisations" }).getByRole("link", { name: /^imported topic-run\.zip \(#\d+\)$/ }).waitFor({ timeout: 15_000 })).resolves.toBeUndefined();
    await result.getByRole("link", { name: "Open it" }).click();
    await page.waitForURL(/\/optimize\/\d+$/);
    await expect(page.getByText("imported", { exact: true }).first().isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("stage-row").count()).resolves.toBeGreaterThan(1);
    await screenshot(page, "optimize-imported");

    // A broken zip: the error names the file and what is wrong; nothing is stored.
    await page.goto(`${app.baseURL}/optimize`);
    await form.getByLabel("SkillOpt output (.zip)").setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: Buffer.from("PK\u0003\u0004 this is not a zip") });
    await form.getByRole("button", { name: "Import", exact: true }).click();
    await result.getByRole("alert").waitFor({ timeout: 20_000 });
    await expect(result.innerText()).resolves.toMatch(/^Nothing was imported\. broken\.zip: not a readable zip file/);
    // One whose history.json is broken names the file inside too.
    const bad = makeZip({ dir: join("tests", "fixtures", "skillopt-output"), replace: { "history.json": "[{" } });
    await form.getByLabel("SkillOpt output (.zip)").setInputFiles({ name: "bad-history.zip", mimeType: "application/zip", buffer: bad });
    await form.getByRole("button", { name: "Import", exact: true }).click();
    await result.getByText(/bad-history\.zip: history\.json: not valid JSON/).waitFor({ timeout: 20_000 });
    expect(await app.db.optimization.count()).toBe(before + 1);
    await screenshot(page, "optimize-import-error");
    // The route's 400s, which Chromium logs; nothing else went wrong.
    expect(errors.splice(0)).toEqual([
      expect.stringMatching(/status of 400 .*\/api\/optimizations\/import\?fileName=broken\.zip\)$/),
      expect.stringMatching(/status of 400 .*\/api\/optimizations\/import\?fileName=bad-history\.zip\)$/),
    ]);
  }, 120_000);
});
