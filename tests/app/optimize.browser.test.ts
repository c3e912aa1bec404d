// The optimisation pages in a real browser against the production build, with the test model server playing both
// the target (skill-sensitive answers) and SkillOpt's optimizer (a scripted analyst, merges, ranking, slow update,
// meta skill): start from the form on a split made there, watch the page advance without a reload, open a step and
// read its gate, edits, items and prompts; a manual-approval optimisation that waits for a person; cancel and resume.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { addSkillVersion, getOptimization, importDataset, listOptimizationSteps } from "@/lib/db";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { optimizerAnswer } from "../support/fake-optimizer";
import { optimizationDataset, TOPIC_RULES_HEADING } from "../support/fake-optimizer-target";

const SKILL = `# Topic answering\n\nRead the passages and answer with one title.\n\n${TOPIC_RULES_HEADING}\n`;
// 54 items split 4:3:2 → 24 train, 18 val, 12 test.
const ITEMS = 54;

describe("optimisation pages (browser)", () => {
  let fake: FakeOpenAIServer | undefined;
  beforeAll(async () => {
    fake = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req) });
  });
  afterAll(() => fake?.close());
  const app = useBrowserApp(() => ({
    env: { OPENAI_BASE_URL: fake!.baseURL, SKILLBOARD_MODEL: "fake", OPENAI_API_KEY: "sk-test-optimize" },
    viewport: { width: 1280, height: 900 },
  }));

  beforeAll(async () => {
    const items = optimizationDataset({ size: ITEMS, topics: 12, seed: 3, lureRate: 0.6 });
    await importDataset(app.db, { name: "topic-world", fileName: "topics.jsonl", format: "jsonl", hash: "optimize-browser", items });
    await addSkillVersion(app.db, { name: "topic-skill", content: SKILL, note: "initial" });
  });

  /** The New optimisation form filled for the small world: the SkillOpt default preset, then smaller sizes. */
  async function fillForm(page: Page, options: { approval?: "auto" | "manual"; epochs?: string } = {}) {
    await page.goto(`${app.baseURL}/optimize/new`);
    await page.getByLabel("Skill version", { exact: true }).selectOption({ label: "topic-skill v1 — initial" });
    await page.getByLabel("Dataset to split", { exact: true }).selectOption({ label: `topic-world (${ITEMS} items)` });
    await page.getByLabel("Split ratio", { exact: true }).fill("4:3:2");
    await page.getByRole("button", { name: "SkillOpt default", exact: true }).click();
    await expect(page.getByLabel("Batch size", { exact: true }).inputValue()).resolves.toBe("40");
    await expect(page.getByLabel("Gate the slow update on val").isChecked()).resolves.toBe(false);
    for (const [label, value] of [["Epochs", options.epochs ?? "2"], ["Batch size", "8"], ["Minibatch size", "4"], ["Merge batch size", "2"], ["Learning rate", "2"], ["Min learning rate", "1"], ["Slow-update samples", "6"], ["Concurrency", "8"], ["Optimizer concurrency", "4"]]) {
      await page.getByLabel(label!, { exact: true }).fill(value!);
    }
    if (options.approval) await page.getByLabel("Approval", { exact: true }).selectOption(options.approval);
  }

  async function startAndOpen(page: Page): Promise<number> {
    await page.getByRole("button", { name: "Start optimisation", exact: true }).click();
    await page.waitForURL(/\/optimize\/\d+$/, { timeout: 20_000 });
    return Number(new URL(page.url()).pathname.split("/").pop());
  }

  const status = (page: Page) => page.getByTestId("optimization-status").getAttribute("data-status");
  const stepsDone = async (page: Page) => Number((await page.getByTestId("steps-done").innerText()).split(" / ")[0]);

  it("starts from the form on a new split, advances live, and shows a step's gate, edits, items, diff and prompts", async () => {
    const { page, errors } = app.browser;
    await page.goto(app.baseURL);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Optimise", exact: true }).click();
    await page.waitForURL(/\/optimize$/);
    // A fresh install has the demo's recorded optimisation, and nothing else yet.
    const seeded = await app.db.optimization.count();
    expect(seeded).toBe(1);
    await expect(page.getByRole("table", { name: "Optimisations" }).getByRole("link", { name: /^Demo: recorded with scripted models/ }).isVisible()).resolves.toBe(true);

    await fillForm(page);
    // A bad value comes back under its field; nothing is stored.
    await page.getByLabel("Batch size", { exact: true }).fill("0");
    await page.getByRole("button", { name: "Start optimisation", exact: true }).click();
    await page.getByText("Batch size must be more than 0").waitFor({ timeout: 10_000 });
    expect(await app.db.optimization.count()).toBe(seeded);
    await page.getByLabel("Batch size", { exact: true }).fill("8");

    // The estimate, from the split the form made (24 train items, batches of 8: 3 steps an epoch).
    await page.getByRole("button", { name: "Estimate cost", exact: true }).click();
    const estimate = page.getByTestId("estimate");
    await estimate.waitFor({ timeout: 15_000 });
    await expect(estimate.innerText()).resolves.toContain("24 train · 18 val · 12 test items; 2 epochs × 3 steps = 6 steps");
    expect(await app.db.optimization.count()).toBe(seeded);
    await screenshot(page, "optimize-new");

    // Slow enough to be seen mid-way; the first calls are held until the page has shown them in flight.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    fake!.setOptions({ latencyMs: 40, faults: { pick: () => ({ kind: "hold", until: held }) } });
    const id = await startAndOpen(page);
    await expect(page.getByRole("heading", { name: /Validation score/ }).isVisible()).resolves.toBe(true);
    // Calls in flight, target and optimizer, while it runs.
    await expect.poll(async () => Number(await page.getByTestId("calls-in-flight").innerText()), { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
    await expect(page.getByTestId("calls-in-flight-split").innerText()).resolves.toMatch(/^target \d+ · optimizer \d+$/);
    fake!.setOptions({ faults: undefined });
    release();
    await expect.poll(() => stepsDone(page), { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
    const midStatus = await status(page);
    await screenshot(page, "optimize-mid-run");
    expect(["running", "completed"]).toContain(midStatus);
    fake!.setOptions({ latencyMs: 0 });
    await expect.poll(() => status(page), { timeout: 120_000 }).toBe("completed");
    await expect(page.getByTestId("steps-done").innerText()).resolves.toBe("6 / 6");
    const stages = await listOptimizationSteps(app.db, id);
    await expect(page.getByTestId("stage-row").count()).resolves.toBe(stages.length);
    await page.locator(".recharts-scatter-symbol").first().waitFor({ timeout: 10_000 });
    await screenshot(page, "optimize-done");

    // A step with edits: its page shows the gate, the edits with the items behind them, the diff and the calls.
    const withEdits = stages.find((stage) => stage.kind === "step" && stage.candidateVersionId !== null)!;
    expect(withEdits).toBeDefined();
    await page.getByRole("link", { name: withEdits.key, exact: true }).click();
    await page.waitForURL(/\/steps\//);
    const gate = JSON.parse(withEdits.gateJson!) as { statistics: { fixed: number; broken: number } };
    await expect(page.getByTestId("fixed-broken").innerText()).resolves.toBe(`+${gate.statistics.fixed} / −${gate.statistics.broken}`);
    await expect(page.getByTestId("gate-decision").innerText()).resolves.toBe(withEdits.action!.replaceAll("_", " "));
    await expect(page.getByText("Rule: the seed's rule").isVisible()).resolves.toBe(true);
    const editRows = page.getByRole("table", { name: "Ranked edits" }).locator("tbody tr");
    await expect(editRows.count()).resolves.toBeGreaterThan(0);
    const edit = (await app.db.optimizationEdit.findMany({ where: { stepId: withEdits.id }, orderBy: { ordinal: "asc" } }))[0]!;
    await expect(editRows.first().innerText()).resolves.toContain(edit.content.split("\n")[0]!);
    const proposer = (JSON.parse(edit.proposedByJson) as { itemIds: string[] }[])[0]!;
    // The item behind the edit links to the rollout run's item view.
    const itemLink = editRows.first().getByRole("link", { name: proposer.itemIds[0]!, exact: true });
    await expect(itemLink.getAttribute("href")).resolves.toMatch(new RegExp(`^/runs/\\d+/items/${encodeURIComponent(proposer.itemIds[0]!)}$`));
    await expect(page.getByRole("heading", { name: /^Skill diff: topic-skill v\d+ → topic-skill v\d+$/ }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: "Compare the two val runs side by side" }).isVisible()).resolves.toBe(true);
    await screenshot(page, "optimize-step");
    // An analyst call's prompt and reply load when opened.
    const call = page.getByTestId("optimizer-call").first();
    await call.getByText("Prompt and reply").click();
    await call.getByTestId("call-reply").waitFor({ timeout: 10_000 });
    const stored = await app.db.optimizerCall.findFirstOrThrow({ where: { optimizationId: id, stepKey: withEdits.key, stage: { startsWith: "analyst" } }, orderBy: { id: "asc" } });
    const replyLine = stored.reply!.split("\n").map((line) => line.trim()).find((line) => line.length > 0)!;
    await expect(call.getByTestId("call-reply").innerText()).resolves.toContain(replyLine);
    await expect(call.innerText()).resolves.toContain("User message");

    // j goes to the next stage, k back.
    const keys = stages.map((stage) => stage.key);
    const at = keys.indexOf(withEdits.key);
    await page.locator("h1").click();
    await page.keyboard.press("j");
    await page.waitForURL((url) => decodeURIComponent(url.pathname).endsWith(`/steps/${keys[at + 1]}`), { timeout: 10_000 });
    await page.getByRole("heading", { level: 1, name: new RegExp(`^${keys[at + 1]}`) }).waitFor({ timeout: 10_000 });
    await page.keyboard.press("k");
    await page.waitForURL((url) => decodeURIComponent(url.pathname).endsWith(`/steps/${withEdits.key}`), { timeout: 10_000 });

    // A step of epoch 2 starts from epoch 1's slow-update placeholder, which inherited its score (the seed never puts it
    // on val): its gate panel says why there are no paired statistics instead of a dash.
    const inherited = stages.find((stage) => stage.kind === "step" && stage.epoch === 2 && stage.gateJson && JSON.parse(stage.gateJson).statistics === null)!;
    expect(inherited).toBeDefined();
    await page.goto(`${app.baseURL}/optimize/${id}/steps/${encodeURIComponent(inherited.key)}`);
    await expect(page.getByTestId("fixed-broken").innerText()).resolves.toBe("not measured: the slow update's placeholder inherited the score (the seed does not validate it again)");

    // The list shows it, and the best version's skill page says where it came from.
    await page.goto(`${app.baseURL}/optimize`);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: `#${id}`, exact: true }) });
    await expect(row.innerText()).resolves.toContain("6 / 6");
    await screenshot(page, "optimize-list");
    const optimization = await getOptimization(app.db, id);
    const candidate = await app.db.skillVersion.findUniqueOrThrow({ where: { id: withEdits.candidateVersionId! } });
    await page.goto(`${app.baseURL}/skills/${optimization.skillId}?version=${candidate.version}`);
    await expect(page.getByTestId("version-origin").innerText()).resolves.toContain(`Made by optimisation #${id} · ${withEdits.key}`);
    await expect(page.getByRole("heading", { name: "Lineage" }).isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);
  }, 300_000);

  it("waits for a person in manual mode, and goes on when the candidate is approved or rejected", async () => {
    const { page, errors } = app.browser;
    // Two epochs: in this world the first epoch's candidates all lose to the initial skill; step 5 passes the gate.
    await fillForm(page, { approval: "manual" });
    const id = await startAndOpen(page);
    await expect.poll(() => status(page), { timeout: 90_000 }).toBe("waiting_for_approval");
    await expect(page.getByRole("heading", { name: "Waiting for your decision" }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("optimization-status").innerText()).resolves.toBe("waiting for your decision");
    await screenshot(page, "optimize-waiting");
    const waitingKey = (await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, approval: "pending" } })).key;
    // The waiting step's page offers the candidate's text to change and approve (it would be gated again).
    await page.getByRole("link", { name: waitingKey, exact: true }).first().click();
    await page.waitForURL(/\/steps\//);
    await expect(page.getByLabel("The candidate skill, as you want it").inputValue()).resolves.toContain("## Topic rules");
    await expect(page.getByRole("button", { name: "Approve edited candidate" }).isVisible()).resolves.toBe(true);
    await page.goBack();
    await page.getByRole("heading", { name: "Waiting for your decision" }).waitFor();
    await page.getByRole("button", { name: "Approve candidate", exact: true }).click();
    await expect.poll(async () => (await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, key: waitingKey } })).approval, { timeout: 10_000 }).toBe("approved");
    // Later candidates may wait too: reject them, until the optimisation completes. Each is rejected once the page
    // offers that very step (the worker process may take a moment to go on after the previous decision).
    for (let round = 0; round < 6; round++) {
      await expect.poll(() => status(page), { timeout: 90_000 }).toMatch(/^(waiting_for_approval|completed)$/);
      if ((await status(page)) === "completed") break;
      const pending = await app.db.optimizationStep.findFirst({ where: { optimizationId: id, approval: "pending" } });
      if (!pending) continue;
      const panel = page.getByRole("region", { name: "Waiting for your decision" });
      await panel.getByRole("link", { name: pending.key, exact: true }).waitFor({ timeout: 30_000 });
      await panel.getByRole("button", { name: "Reject candidate", exact: true }).click();
      await expect.poll(async () => (await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, key: pending.key } })).approval, { timeout: 30_000 }).toBe("rejected");
    }
    await expect.poll(() => status(page), { timeout: 90_000 }).toBe("completed");
    const approved = await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, key: waitingKey } });
    expect(approved.action).toMatch(/accept/);
    await expect(page.getByRole("row").filter({ hasText: waitingKey }).innerText()).resolves.toContain("approved by you");
    // The lineage lists the approved candidate, though the first optimisation stored that text first.
    const approvedVersion = await app.db.skillVersion.findUniqueOrThrow({ where: { id: approved.candidateVersionId! } });
    await expect(page.getByRole("region", { name: "Version lineage" }).getByRole("link", { name: `v${approvedVersion.version}`, exact: true }).isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);
  }, 300_000);

  it("approves a candidate a person changed on the step page: a new version, scored and gated again", async () => {
    const { page, errors } = app.browser;
    await fillForm(page, { approval: "manual" });
    const id = await startAndOpen(page);
    await expect.poll(() => status(page), { timeout: 90_000 }).toBe("waiting_for_approval");
    const waiting = await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, approval: "pending" } });
    await page.goto(`${app.baseURL}/optimize/${id}/steps/${encodeURIComponent(waiting.key)}`);
    const box = page.getByLabel("The candidate skill, as you want it");
    const edited = `${await box.inputValue()}\n- Answer with the title only.\n`;
    await box.fill(edited);
    await page.getByRole("button", { name: "Approve edited candidate", exact: true }).click();
    // The optimisation's page opens again; it goes on with the edited text.
    await page.waitForURL((url) => url.pathname === `/optimize/${id}`, { timeout: 10_000 });
    const decided = await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, key: waiting.key } });
    expect(decided.approval).toBe("edited");
    const version = await app.db.skillVersion.findUniqueOrThrow({ where: { id: decided.approvalVersionId! } });
    expect(version).toMatchObject({ content: edited, parentVersionId: waiting.candidateVersionId, originOptimizationId: id, originStepKey: `${waiting.key}/edited` });
    // It goes on (rejecting any later candidate) to the end; the step's gate was run again on the edited text.
    for (let round = 0; round < 6; round++) {
      await expect.poll(() => status(page), { timeout: 90_000 }).toMatch(/^(waiting_for_approval|completed)$/);
      if ((await status(page)) === "completed") break;
      await page.getByRole("button", { name: "Reject candidate", exact: true }).click();
      await expect.poll(() => status(page), { timeout: 30_000 }).not.toBe("waiting_for_approval");
    }
    const regated = await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, key: waiting.key } });
    expect((JSON.parse(regated.gateJson!) as { approval: string }).approval).toBe("edited");
    expect(regated.candidateVersionId).toBe(version.id);
    expect(errors).toEqual([]);
  }, 300_000);

  it("drops an edit of a waiting candidate on the step page: the rest is rebuilt into a version and gated again", async () => {
    const { page, errors } = app.browser;
    await fillForm(page, { approval: "manual" });
    await page.getByLabel("Learning rate", { exact: true }).fill("4");
    await page.getByLabel("Min learning rate", { exact: true }).fill("2");
    const id = await startAndOpen(page);
    // The first waiting candidate with two edits or more (others are rejected).
    let waiting: Awaited<ReturnType<typeof app.db.optimizationStep.findFirstOrThrow>> | undefined;
    for (let round = 0; round < 6 && !waiting; round++) {
      await expect.poll(() => status(page), { timeout: 90_000 }).toMatch(/^(waiting_for_approval|completed)$/);
      if ((await status(page)) === "completed") break;
      const pending = await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, approval: "pending" } });
      if ((await app.db.optimizationEdit.count({ where: { stepId: pending.id } })) >= 2) waiting = pending;
      else {
        await page.getByRole("button", { name: "Reject candidate", exact: true }).click();
        await expect.poll(() => status(page), { timeout: 30_000 }).not.toBe("waiting_for_approval");
      }
    }
    expect(waiting, "a candidate with two edits or more waited").toBeDefined();
    await page.goto(`${app.baseURL}/optimize/${id}/steps/${encodeURIComponent(waiting!.key)}`);
    const form = page.getByRole("form", { name: "Drop edits" });
    await form.getByLabel(/^Keep edit 1:/).uncheck();
    await screenshot(page, "optimize-drop-edits");
    await form.getByRole("button", { name: "Drop unticked edits and re-run the gate", exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/optimize/${id}`, { timeout: 10_000 });
    const decided = await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, key: waiting!.key } });
    expect(decided.approval).toBe("edited");
    const version = await app.db.skillVersion.findUniqueOrThrow({ where: { id: decided.approvalVersionId! } });
    expect(version).toMatchObject({ parentVersionId: waiting!.candidateVersionId, note: `candidate of optimization ${id} · ${waiting!.key} without edit 1` });
    for (let round = 0; round < 6; round++) {
      await expect.poll(() => status(page), { timeout: 90_000 }).toMatch(/^(waiting_for_approval|completed)$/);
      if ((await status(page)) === "completed") break;
      await page.getByRole("button", { name: "Reject candidate", exact: true }).click();
      await expect.poll(() => status(page), { timeout: 30_000 }).not.toBe("waiting_for_approval");
    }
    const regated = await app.db.optimizationStep.findFirstOrThrow({ where: { optimizationId: id, key: waiting!.key } });
    expect(regated.candidateVersionId).toBe(version.id);
    expect((JSON.parse(regated.gateJson!) as { approval: string }).approval).toBe("edited");
    expect(errors).toEqual([]);
  }, 300_000);

  it("cancels a running optimisation and resumes it to the end", async () => {
    const { page, errors } = app.browser;
    await fillForm(page, { epochs: "1" });
    fake!.setOptions({ latencyMs: 150 });
    const id = await startAndOpen(page);
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe("running");
    await page.getByRole("button", { name: "Cancel optimisation", exact: true }).click();
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe("cancelled");
    expect((await getOptimization(app.db, id)).status).toBe("cancelled");
    // Stopped part-way: no final stage yet; what it finished is kept and reused by the resume.
    const before = await listOptimizationSteps(app.db, id);
    expect(before.some((stage) => stage.kind === "final")).toBe(false);
    const callsBefore = await app.db.optimizerCall.findMany({ where: { optimizationId: id }, select: { key: true, id: true } });
    fake!.setOptions({ latencyMs: 0 });
    await page.getByRole("button", { name: "Resume optimisation", exact: true }).click();
    await expect.poll(() => status(page), { timeout: 120_000 }).toBe("completed");
    await expect(page.getByTestId("steps-done").innerText()).resolves.toBe("3 / 3");
    const after = await listOptimizationSteps(app.db, id);
    expect(after.some((stage) => stage.kind === "final")).toBe(true);
    for (const stage of before) expect(after.find((row) => row.key === stage.key)?.id).toBe(stage.id);
    const callsAfter = await app.db.optimizerCall.findMany({ where: { optimizationId: id }, select: { key: true, id: true } });
    for (const call of callsBefore) expect(callsAfter.find((row) => row.key === call.key)?.id).toBe(call.id);
    expect(errors).toEqual([]);
  }, 300_000);

  it("a failed optimisation (the model server refusing its key) says why, and resumes to the end", async () => {
    const { page, errors } = app.browser;
    await fillForm(page, { epochs: "1" });
    fake!.setOptions({ latencyMs: 30 });
    const id = await startAndOpen(page);
    // The key is refused as soon as the database holds a first step, not once the page shows it (every second): a
    // worker process that finished the other steps in between completed the optimisation instead (CI, under load).
    const stepsStored = () => app.db.optimizationStep.count({ where: { optimizationId: id, kind: "step" } });
    await expect.poll(stepsStored, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(1);
    fake!.setOptions({ faults: { pick: () => ({ kind: "status", status: 401, body: '{"error":{"message":"invalid key"}}' }) } });
    expect(await stepsStored()).toBeLessThan(3);
    await expect.poll(() => status(page), { timeout: 60_000 }).toBe("failed");
    const failed = await getOptimization(app.db, id);
    expect(failed.error).toBeTruthy();
    await expect(page.locator(".error-box").first().innerText()).resolves.toBe(failed.error);
    expect(await page.content()).not.toContain("sk-test-optimize");
    fake!.setOptions({ faults: undefined, latencyMs: 0 });
    await page.getByRole("button", { name: "Resume optimisation", exact: true }).click();
    await expect.poll(() => status(page), { timeout: 120_000 }).toBe("completed");
    await expect(page.getByTestId("steps-done").innerText()).resolves.toBe("3 / 3");
    expect(errors).toEqual([]);
  }, 300_000);
});
