// The real Codex CLI and Claude Code from the browser: a run started on the New run form with the `codex` and
// `claude-code` presets, against the test model server on 127.0.0.1, completes with the scores the scripted model
// earned by reading task.md with the agent's own tools, and the item view shows those tool calls. (The CLI side,
// and the failure cases, are in tests/cli/real-agents.test.ts.) CI installs the pinned binaries (.ci/run).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findProgram, TESTED_AGENT_VERSIONS } from "@/lib/agent";
import { addSkillVersion, getRun, importDataset } from "@/lib/db";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";

const SEARCH_PATH = [process.env.SKILLBOARD_TEST_AGENT_BIN_DIR, process.env.PATH].filter(Boolean).join(delimiter);
const KEY = "sk-skillboard-browser-agent-key-81d2";
const AGENTS = [
  { name: "codex", program: "codex", package: "@openai/codex", version: TESTED_AGENT_VERSIONS.codex },
  { name: "claude", program: "claude", package: "@anthropic-ai/claude-code", version: TESTED_AGENT_VERSIONS.claude },
] as const;
const missing = AGENTS.filter((agent) => !findProgram(agent.program, SEARCH_PATH));

// Two items the scripted model can only answer by reading task.md: one right, one wrong.
const ITEMS = [
  { id: "b1", question: "Which city has the leaning tower? [[ANSWER: Pisa]]", answers: ["Pisa"], context: "[DOC] [TLE] Unrelated [PAR] Nothing here." },
  { id: "b2", question: "Capital of France? [[ANSWER: Rome]]", answers: ["Paris"], context: "[DOC] [TLE] Unrelated [PAR] Nothing here." },
];

if (missing.length > 0) {
  const notice = missing.map((agent) => `the real ${agent.program} is not installed (npm i -g ${agent.package}@${agent.version}, or set SKILLBOARD_TEST_AGENT_BIN_DIR)`).join("; ");
  if (process.env.CI) {
    it("needs the real agent binaries in CI", () => {
      throw new Error(`${notice}; .ci/run installs them`);
    });
  } else {
    it.skip(`real agents from the browser: ${notice}`, () => undefined);
  }
} else {
  describe("the real agents from the browser", () => {
    let model: FakeOpenAIServer;
    let dir: string;
    beforeAll(async () => {
      model = await startFakeOpenAIServer({ requireApiKey: KEY });
      dir = mkdtempSync(join(tmpdir(), "skillboard-browser-agents-"));
    });
    afterAll(async () => {
      await model?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const app = useBrowserApp(() => {
      const sandbox = process.getuid?.() === 0 ? { isSandbox: true } : {};
      const entry = (preset: string, baseUrl: string) => ({ preset, defaultModel: "fake-agent-model", maxRetries: 1, provider: { baseUrl, apiKeyEnv: "TEST_AGENT_KEY" }, ...sandbox });
      const config = join(dir, "skillboard.config.json");
      writeFileSync(config, JSON.stringify({ agents: { codex: entry("codex", model.baseURL), claude: entry("claude-code", model.origin) } }));
      // HOME is a fresh folder: nothing of the real user's ~/.codex or ~/.claude reaches the agents.
      return { env: { SKILLBOARD_CONFIG: config, PATH: SEARCH_PATH, HOME: dir, TEST_AGENT_KEY: KEY }, viewport: { width: 1280, height: 900 } };
    });

    beforeAll(async () => {
      await importDataset(app.db, { name: "agent-items", fileName: "agent-items.jsonl", format: "jsonl", hash: "real-agents-browser", items: ITEMS });
      await addSkillVersion(app.db, { name: "agent-skill", content: "# Rules\n\nRead task.md and answer inside <answer> tags.", note: "browser test" });
    });

    it.each(AGENTS.map((agent) => [agent.name] as const))("%s: a run from the New run form scores what the agent read, and its item shows the tool calls", async (name) => {
      const { page, errors } = app.browser;
      await page.goto(`${app.baseURL}/runs/new`);
      await page.getByLabel("Dataset", { exact: true }).selectOption({ label: `agent-items (${ITEMS.length} items)` });
      await page.getByLabel("Skill version", { exact: true }).selectOption({ label: "agent-skill v1 — browser test" });
      await page.getByLabel(/Agent \(command line\)/).check();
      await page.getByLabel("Agent", { exact: true }).selectOption(name);
      await page.getByRole("button", { name: "Start run", exact: true }).click();

      await page.waitForURL(/\/runs\/\d+$/, { timeout: 15_000 });
      const runId = Number(new URL(page.url()).pathname.split("/").pop());
      await page.getByTestId("run-status").filter({ hasText: /^completed$/ }).waitFor({ timeout: 90_000 });
      expect(await getRun(app.db, runId)).toMatchObject({ status: "completed", backend: "agent", nDone: 2, emSum: 1, nErrors: 0 });

      await page.goto(`${app.baseURL}/runs/${runId}/items/b1`);
      const trace = page.getByRole("region", { name: "Agent trace" });
      await trace.waitFor({ timeout: 10_000 });
      const shown = await trace.innerText();
      // The scripted model's first turn has the agent's shell read task.md (and its read tool or shell read SKILL.md).
      expect(shown).toMatch(/(shell .*|Bash )cat task\.md/);
      expect(shown).toMatch(/SKILL\.md/);
      expect(shown).toMatch(/<answer>\s*Pisa\s*<\/answer>/);
      // Each tool call's output is in the trace too (folded away until opened): task.md as the agent read it.
      expect(await trace.textContent()).toContain("[[ANSWER: Pisa]]");
      expect(await page.content()).not.toContain(KEY);
      await screenshot(page, `real-agent-${name}-item`);
      expect(errors).toEqual([]);
    }, 150_000);
  });
}
