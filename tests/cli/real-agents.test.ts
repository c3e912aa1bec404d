// The real Codex CLI and Claude Code, run from the CLI through the `codex` and `claude-code` presets against the
// test model server on 127.0.0.1 (no network): the scripted model reads task.md and SKILL.md with the agent's
// own tools and answers from them, so a right score means the agent really ran those tool calls. Failures of the
// server (500, not listening, 401) give readable reasons within seconds; cancelling leaves no agent behind; a kept
// workspace holds no key. CI installs the pinned binaries (.ci/run); elsewhere a missing binary skips with a notice.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { detectEventFormat, findProgram, parseAgentEvents, TESTED_AGENT_VERSIONS } from "@/lib/agent";
import { getItemExec, iterateRunResultPages } from "@/lib/db";
import type { StoredItemResult } from "@/lib/runs";
import { allGone } from "../support/agents";
import { runCli, spawnCli } from "../support/cli";
import { faultAlways, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createTestDb, type TestDatabase } from "../support/test-db";

const SEARCH_PATH = [process.env.SKILLBOARD_TEST_AGENT_BIN_DIR, process.env.PATH].filter(Boolean).join(delimiter);
const KEY = "sk-skillboard-test-key-5f3a9c";
const SKILL = "tests/fixtures/skills/searchqa-trained.md";

const AGENTS = [
  { name: "codex", program: "codex", preset: "codex", version: TESTED_AGENT_VERSIONS.codex, baseUrl: (server: FakeOpenAIServer) => server.baseURL },
  { name: "claude", program: "claude", preset: "claude-code", version: TESTED_AGENT_VERSIONS.claude, baseUrl: (server: FakeOpenAIServer) => server.origin },
] as const;

let server: FakeOpenAIServer;
let dir: string;
let t: TestDatabase;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ requireApiKey: KEY });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skillboard-real-agents-"));
  t = createTestDb();
  server.setOptions({ faults: undefined, requireApiKey: KEY });
  server.resetStats();
});
afterEach(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Three items whose answers the scripted model can only give by reading task.md: two right, one wrong. */
function writeDataset(): string {
  const rows = [
    { id: "r1", question: "Which city has the leaning tower? [[ANSWER: Pisa]]", answers: ["Pisa"] },
    { id: "r2", question: "Capital of Norway? [[ANSWER: Oslo]]", answers: ["Oslo"] },
    { id: "r3", question: "Capital of France? [[ANSWER: Rome]]", answers: ["Paris"] },
  ].map((row) => ({ ...row, context: `[DOC] [TLE] Unrelated title [PAR] Nothing about ${row.id}.` }));
  const path = join(dir, "real.jsonl");
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
  return path;
}

function writeConfig(baseUrl: string): string {
  const sandbox = process.getuid?.() === 0 ? { isSandbox: true } : {};
  const entry = (preset: string, url: string) => ({ preset, defaultModel: "fake-agent-model", maxRetries: 1, provider: { baseUrl: url, apiKeyEnv: "TEST_AGENT_KEY" }, ...sandbox });
  const path = join(dir, "skillboard.config.json");
  writeFileSync(path, JSON.stringify({ agents: { codex: entry("codex", baseUrl), claude: entry("claude-code", baseUrl) } }));
  return path;
}

const dataDir = () => dirname(t.url.slice("file:".length));

function cliEnv(config: string): Record<string, string> {
  // HOME is a fresh folder: nothing of the real user's ~/.codex or ~/.claude can reach the agents.
  return { SKILLBOARD_CONFIG: config, PATH: SEARCH_PATH, HOME: dir, TEST_AGENT_KEY: KEY };
}

async function results(runId: number): Promise<StoredItemResult[]> {
  const rows: StoredItemResult[] = [];
  for await (const page of iterateRunResultPages(t.db, runId)) rows.push(...page);
  return rows.sort((a, b) => a.itemId.localeCompare(b.itemId));
}

/** Every file under `root` whose bytes contain `needle`. */
function filesContaining(root: string, needle: string): string[] {
  if (!existsSync(root)) return [];
  const hits: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (readFileSync(path).includes(needle)) hits.push(path);
  }
  return hits;
}

/** Pids of processes whose command line mentions `text` (the agents name their workspace in theirs). */
function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(text)) pids.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

for (const agent of AGENTS) {
  const binary = findProgram(agent.program, SEARCH_PATH);
  if (!binary) {
    const notice = `the real ${agent.program} is not installed (npm i -g ${agent.program === "codex" ? "@openai/codex" : "@anthropic-ai/claude-code"}@${agent.version}, or set SKILLBOARD_TEST_AGENT_BIN_DIR)`;
    if (process.env.CI) {
      it(`${agent.name}: needs the real binary in CI`, () => {
        throw new Error(`${notice}; .ci/run installs it`);
      });
    } else {
      // A skipped test (not a silent file): vitest shows the notice in its report.
      it.skip(`${agent.name}: ${notice}`, () => undefined);
    }
    continue;
  }

  describe(`the real ${agent.program} through the ${agent.preset} preset`, () => {
    it("answers from task.md read with its own tools, scores it, stores the trace, and keeps no key in the workspace", async () => {
      const config = writeConfig(agent.baseUrl(server));
      const result = await runCli(["run", "--dataset", writeDataset(), "--skill", SKILL, "--agent", agent.name, "--keep-workspaces", "--concurrency", "3"], { databaseUrl: t.url, env: cliEnv(config) });
      expect(result.stderr).not.toMatch(/error:/);
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout) as { n: number; em: number; errors: number };
      expect(summary).toMatchObject({ n: 3, errors: 0 });
      expect(summary.em).toBeCloseTo(2 / 3, 5);
      const rows = await results(1);
      expect(rows.map((row) => [row.itemId, row.predictedAnswer, row.status])).toEqual([["r1", "Pisa", "correct"], ["r2", "Oslo", "correct"], ["r3", "Rome", "wrong"]]);
      expect(rows[0]!.promptTokens).toBeGreaterThan(0);
      expect(rows[0]!.completionTokens).toBeGreaterThan(0);

      const exec = await getItemExec(t.db, 1, "r1");
      expect(exec).toMatchObject({ agent: agent.name, outcome: "exited", exitCode: 0 });
      const trace = parseAgentEvents(exec!.stdout, detectEventFormat(exec!.stdout))!;
      const tools = trace.steps.filter((step) => step.kind === "tool");
      expect(tools.map((step) => step.input).join("\n")).toMatch(/task\.md/);
      expect(tools.map((step) => step.input).join("\n")).toMatch(/SKILL\.md/);
      expect(tools.map((step) => step.output).join("\n")).toContain("Which city has the leaning tower?");
      expect(trace.finalMessage).toBe("Reasoning...\n<answer>Pisa</answer>");

      expect(filesContaining(join(dataDir(), "runs"), KEY)).toEqual([]);
      expect(existsSync(join(dataDir(), "runs", "1", "agent-homes", "r1"))).toBe(false);
      expect(readdirSync(join(dataDir(), "runs", "1", "workspaces")).sort()).toEqual(["r1", "r2", "r3"]);
    }, 90_000);

    it("gives the agent's own message when the server answers 500, and when nothing listens, within seconds", async () => {
      server.setOptions({ faults: faultAlways(() => true, { kind: "status", status: 500 }) });
      const started = Date.now();
      const failing = await runCli(["run", "--dataset", writeDataset(), "--skill", SKILL, "--agent", agent.name, "--limit", "1"], { databaseUrl: t.url, env: cliEnv(writeConfig(agent.baseUrl(server))) });
      expect(failing.code).toBe(1);
      const [row] = await results(1);
      expect(row!.status).toBe("error");
      expect(row!.failReason).toMatch(new RegExp(`^error: agent "${agent.name}" exited with code 1: `));
      expect(row!.failReason).not.toMatch(/nothing on stderr|Reading additional input/);
      expect(row!.failReason).toMatch(agent.program === "codex" ? /high demand|500/ : /API Error: 500 Simulated error 500/);

      const port = await closedPort();
      const url = agent.program === "codex" ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
      const dead = await runCli(["run", "--dataset", writeDataset(), "--skill", SKILL, "--agent", agent.name, "--limit", "1"], { databaseUrl: t.url, env: cliEnv(writeConfig(url)) });
      expect(dead.code).toBe(1);
      const [deadRow] = await results(2);
      expect(deadRow!.failReason).toMatch(agent.program === "codex"
        ? /^error: agent "codex" could not reach its model server: Reconnecting\.\.\. waiting for network/
        : /^error: agent "claude" exited with code 1: API Error: Unable to connect to API/);
      expect(Date.now() - started).toBeLessThan(45_000);
    }, 90_000);

    it("stops the run on a 401 with the server's message, recording no item", async () => {
      server.setOptions({ requireApiKey: "another-key" });
      const result = await runCli(["run", "--dataset", writeDataset(), "--skill", SKILL, "--agent", agent.name, "--limit", "2"], { databaseUrl: t.url, env: cliEnv(writeConfig(agent.baseUrl(server))) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`agent "${agent.name}": .*(401|authenticate).*Incorrect API key provided`));
      expect(await results(1)).toEqual([]);
    }, 60_000);

    it("kills the agents when the run is interrupted: no process is left", async () => {
      server.setOptions({ faults: faultAlways(() => true, { kind: "hang" }) });
      const child = spawnCli(["run", "--dataset", writeDataset(), "--skill", SKILL, "--agent", agent.name, "--concurrency", "3"], { databaseUrl: t.url, env: cliEnv(writeConfig(agent.baseUrl(server))) });
      child.stdin!.end();
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      const workspaces = join(dataDir(), "runs", "1", "workspaces");
      const deadline = Date.now() + 30_000;
      let pids: number[] = [];
      while (Date.now() < deadline && server.requests.filter((request) => request.fault === "hang").length < 3) await new Promise((resolve) => setTimeout(resolve, 100));
      pids = processesMentioning(workspaces);
      expect(pids.length).toBeGreaterThanOrEqual(3);
      child.kill("SIGINT");
      expect(await exited).toBe(130);
      expect(await allGone(pids, 5000)).toBe(true);
      expect(processesMentioning(workspaces)).toEqual([]);
    }, 60_000);
  });
}
