// The agent backend in a real browser against the production build: choose the fake agent in the New run form,
// watch the run complete, read an item's workspace file, and remove the kept workspaces from the run page.
import { hostname } from "node:os";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { itemWorkspaceDirectory } from "@/lib/agent";
import { addSkillVersion, getItemExec, getRun, importDataset } from "@/lib/db";
import { createRunFor, executeRun } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { AGENTS_CONFIG } from "../support/agents";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { makeItems } from "../support/rollout-fixtures";

const ITEMS = 8;
const isWrong = (index: number) => index % 4 === 0;

describe("agent backend (browser)", () => {
  const app = useBrowserApp({ env: { SKILLBOARD_CONFIG: AGENTS_CONFIG }, viewport: { width: 1280, height: 900 } });

  beforeAll(async () => {
    await importDataset(app.db, { name: "agent-dataset", fileName: "a.jsonl", format: "jsonl", hash: "agent-browser-test", items: makeItems(ITEMS, isWrong) });
    await addSkillVersion(app.db, { name: "agent-skill", content: "# Rules\n\nAnswer with the first passage title.", note: "browser test" });
  });

  it("starts a run with a configured agent from the New run form and sees it complete", async () => {
    const { page, errors } = app.browser;
    await page.goto(`${app.baseURL}/runs/new`);
    await page.getByLabel("Dataset", { exact: true }).selectOption({ label: `agent-dataset (${ITEMS} items)` });
    await page.getByLabel("Skill version", { exact: true }).selectOption({ label: "agent-skill v1 — browser test" });
    await page.getByLabel(/Agent \(command line\)/).check();
    // Only names are offered: the commands stay in the server's config file.
    const agentSelect = page.getByLabel("Agent", { exact: true });
    await expect(agentSelect.locator("option").allInnerTexts()).resolves.toContain("codex-like");
    // The server says whether each agent's program is installed, and its version (node --version for the fakes).
    await agentSelect.selectOption("missing");
    await page.getByText(/not installed on this server: a run would be refused/).waitFor({ timeout: 5000 });
    await agentSelect.selectOption("fake");
    await page.getByText(new RegExp(`installed: ${process.version.replaceAll(".", "\\.")}`)).waitFor({ timeout: 5000 });
    await expect(page.getByText("Blank: fake-model-1").isVisible()).resolves.toBe(true);
    expect(await page.content()).not.toContain(".mjs");
    await page.getByLabel("Concurrency", { exact: true }).fill("3");
    await screenshot(page, "agent-run-new");
    await page.getByRole("button", { name: "Start run", exact: true }).click();

    await page.waitForURL(/\/runs\/\d+$/, { timeout: 15_000 });
    const runId = Number(new URL(page.url()).pathname.split("/").pop());
    await page.getByTestId("run-status").filter({ hasText: /^completed$/ }).waitFor({ timeout: 30_000 });
    const run = await getRun(app.db, runId);
    expect(run).toMatchObject({ status: "completed", backend: "agent", nDone: ITEMS, emSum: ITEMS - 2, nErrors: 0 });
    expect(run.config.model).toEqual({ backend: "agent", agent: "fake" });

    // The page reloads server parts after an action; reload to get the workspaces panel of the finished run.
    await page.reload();
    const panel = page.getByRole("region", { name: "Agent workspaces" });
    await expect(panel.innerText()).resolves.toMatch(/Agent fake\. 2 items keep their workspace in .*runs\/\d+\/workspaces \(those of correct items are deleted\)\./);
    await expect(page.locator("main").innerText()).resolves.toContain("fake/fake-model-1 (agent)");
    await screenshot(page, "agent-run-done");

    // A wrong item's workspace is kept: its files can be read through the dashboard, and nothing outside it.
    const exec = await getItemExec(app.db, runId, "q0000");
    const dataDir = dirname(app.server.databaseUrl.slice("file:".length));
    expect(exec).toMatchObject({ workspaceKept: true, exitCode: 0, workspacePath: itemWorkspaceDirectory(dataDir, runId, "q0000"), host: hostname() });
    // Workers on several machines: an item that ran on another one has its workspace there, and the view says so.
    const where = { runId_itemId_trial: { runId, itemId: "q0000", trial: 1 } };
    await app.db.runItemExec.update({ where, data: { host: "worker-b.example", workerName: "gpu-1" } });
    await page.goto(`${app.baseURL}/runs/${runId}/items/q0000`);
    const elsewhere = await page.getByRole("region", { name: "Agent execution" }).innerText();
    expect(elsewhere).toContain("worker-b.example (worker gpu-1)");
    expect(elsewhere).toContain(`The workspace is on worker-b.example, the machine that ran this item, at ${exec!.workspacePath}`);
    await expect(page.getByRole("table", { name: "Workspace files" }).count()).resolves.toBe(0);
    await app.db.runItemExec.update({ where, data: { host: hostname(), workerName: null } });
    await page.goto(`${app.baseURL}/runs/${runId}`);
    const task = await page.request.get(`${app.baseURL}/api/runs/${runId}/workspace-file?item=q0000&path=task.md`);
    expect(task.status()).toBe(200);
    expect(task.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    expect(await task.text()).toMatch(/^## Context\n\[DOC\] \[TLE\] Answer 0 /);
    const skill = await page.request.get(`${app.baseURL}/api/runs/${runId}/workspace-file?item=q0000&path=.agents/skills/skillopt-target/SKILL.md`);
    expect(await skill.text()).toBe(run.systemPrompt);
    const escape = await page.request.get(`${app.baseURL}/api/runs/${runId}/workspace-file?item=q0000&path=../../../../app.db`);
    expect(escape.status()).toBe(404);

    await openItemView(page, app.baseURL, runId, run.systemPrompt);

    await panel.getByRole("button", { name: "Remove kept workspaces" }).click();
    await panel.getByText("Removed the workspaces of 2 items.").waitFor({ timeout: 10_000 });
    await panel.getByText(/0 items keep their workspace/).waitFor({ timeout: 10_000 });
    await expect(panel.getByRole("button", { name: "Remove kept workspaces" }).isDisabled()).resolves.toBe(true);
    expect(existsSync(exec!.workspacePath)).toBe(false);
    expect((await getItemExec(app.db, runId, "q0000"))!.workspaceKept).toBe(false);
    expect((await page.request.get(`${app.baseURL}/api/runs/${runId}/workspace-file?item=q0000&path=task.md`)).status()).toBe(404);

    expect(errors).toEqual([]);
  }, 120_000);

  it("shows an agent's trace in the item view: its tool calls with their output as text, tokens and final message", async () => {
    const { page, errors } = app.browser;
    vi.stubEnv("SKILLBOARD_CONFIG", AGENTS_CONFIG);
    try {
      const [dataset] = await app.db.dataset.findMany({ where: { name: "agent-dataset" } });
      const skill = await app.db.skillVersion.findFirstOrThrow();
      const run = await createRunFor(app.db, { datasetId: dataset!.id, skillVersionId: skill.id, config: { model: { backend: "agent", agent: "codex-like" }, settings: RunSettingsSchema.parse({ limit: 1 }) } });
      const dataDir = dirname(app.server.databaseUrl.slice("file:".length));
      expect(await executeRun(app.db, run.id, { dataDir })).toMatchObject({ status: "completed" });
      await page.goto(`${app.baseURL}/runs/${run.id}/items/q0000`);
      const trace = page.getByRole("region", { name: "Agent trace" });
      await trace.waitFor({ timeout: 10_000 });
      await expect(trace.innerText()).resolves.toMatch(/1 tool call, 10 input tokens \(0 cached\), 5 output tokens · from codex exec --json/);
      const steps = trace.locator("ol > li");
      await expect(steps.allInnerTexts()).resolves.toEqual([
        "reasoning\nLooking at the skill.", "message\nDraft: no idea", expect.stringMatching(/^shell cat task\.md/), "message\n<answer>Answer 0</answer>",
      ]);
      const tool = trace.locator("details", { has: page.locator("summary", { hasText: "cat task.md" }) });
      await tool.locator("summary").click();
      await expect(tool.locator("pre").innerText()).resolves.toBe("<b>not bold</b>\n## Context\n");
      await expect(tool.locator("pre b").count()).resolves.toBe(0);
      await expect(trace.locator("details", { hasText: "Final message" }).locator("pre").innerText()).resolves.toBe("<answer>Answer 0</answer>");
      await screenshot(page, "agent-item-trace");
      expect(errors.filter((error) => !error.includes("/favicon.ico"))).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  }, 60_000);
});

/** The item view of a kept (wrong) item shows its exec details: SKILL.md, task.md, stdout / stderr and the files. */
async function openItemView(page: Page, baseURL: string, runId: number, skillMd: string): Promise<void> {
  await page.goto(`${baseURL}/runs/${runId}/items/q0000`);
  const details = page.getByRole("region", { name: "Agent execution" });
  await details.waitFor({ timeout: 10_000 });
  const text = await details.innerText();
  expect(text).toContain("exit code 0");
  expect(text).toContain("<answer>Answer 0</answer>");
  await details.locator("summary", { hasText: "SKILL.md" }).first().click();
  await expect(details.locator("pre").filter({ hasText: "# ReflACT Target Skill" }).first().textContent()).resolves.toBe(skillMd);
  const files = details.getByRole("table", { name: "Workspace files" });
  await expect(files.innerText()).resolves.toMatch(/\.agents\/skills\/skillopt-target\/SKILL\.md\s+\d/);
  const taskFile = files.locator("details", { has: page.locator("summary", { hasText: /^task\.md$/ }) });
  await taskFile.locator("summary").click();
  await expect(taskFile.locator("pre").innerText()).resolves.toMatch(/^## Context\n\[DOC\] \[TLE\] Answer 0/);
  await screenshot(page, "agent-item-view");
  // A correct item's workspace is gone; the page says so and still shows what the agent printed.
  await page.goto(`${baseURL}/runs/${runId}/items/q0001`);
  const correct = await page.getByRole("region", { name: "Agent execution" }).innerText();
  expect(correct).toContain("The workspace was deleted");
  expect(correct).toContain("<answer>Answer 1</answer>");
  await page.goto(`${baseURL}/runs/${runId}`);
}
