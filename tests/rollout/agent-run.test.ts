// Agent runs end to end: the executor runs each item through a fake agent (tests/fixtures/agents) in its own
// workspace, with the chat path's rows, scoring, timeouts, cancel and resume; exec details stored with each row.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildAgentSkillMd, itemWorkspaceDirectory, promptFilePath, AGENT_PROMPT } from "@/lib/agent";
import { addSkillVersion, getItemConversation, getItemExec, getRun, importDataset, retryFailedItems } from "@/lib/db";
import { createRunFor, executeRun, removeKeptWorkspaces } from "@/lib/rollout";
import { RunSettingsSchema, type RunSettings, type StoredItemResult } from "@/lib/runs";
import type { DatasetItem } from "@/lib/datasets/types";
import { AGENTS_CONFIG, allGone, readPids } from "../support/agents";
import { rejectionOf } from "../support/failures";
import { makeItems, storedResults } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  vi.stubEnv("SKILLBOARD_CONFIG", AGENTS_CONFIG);
  vi.stubEnv("FAKE_AGENT_VAR", "passed-through");
  vi.stubEnv("SKILLBOARD_TOKEN", "never-passed-to-agents");
  t = createTestDb();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await t.close();
});

async function agentRun(agent: string, options: { items?: DatasetItem[]; settings?: Partial<RunSettings>; skill?: string; model?: string; keepWorkspaces?: boolean } = {}) {
  const items = options.items ?? makeItems(6, (i) => i % 3 === 0);
  const dataset = await importDataset(t.db, { name: "d", fileName: "d.jsonl", format: "jsonl", hash: `h${Math.random()}`, items });
  const { version } = await addSkillVersion(t.db, { name: `s${Math.random()}`, content: options.skill ?? "# Rules\n\nAnswer with the passage title." });
  return createRunFor(t.db, {
    datasetId: dataset.id,
    skillVersionId: version.id,
    config: {
      model: { backend: "agent", agent, ...(options.model ? { model: options.model } : {}), ...(options.keepWorkspaces ? { keepWorkspaces: true } : {}) },
      settings: RunSettingsSchema.parse({ concurrency: 3, ...options.settings }),
    },
  });
}

async function results(runId: number): Promise<StoredItemResult[]> {
  return (await storedResults(t.db, runId)).sort((a, b) => a.itemId.localeCompare(b.itemId));
}

const workspace = (runId: number, itemId: string) => itemWorkspaceDirectory(t.dir, runId, itemId);

describe("agent runs", () => {
  it("answers every item through the agent, scores it, and stores the SKILL.md, task.md and exec details", async () => {
    const run = await agentRun("fake");
    expect(run).toMatchObject({ backend: "agent", model: "fake/fake-model-1", systemPrompt: buildAgentSkillMd("# Rules\n\nAnswer with the passage title.") });
    const done = await executeRun(t.db, run.id, { dataDir: t.dir });
    expect(done).toMatchObject({ status: "completed", nDone: 6, emSum: 4, nAgentOk: 6, nErrors: 0 });

    const rows = await results(run.id);
    expect(rows.map((row) => row.status)).toEqual(["wrong", "correct", "correct", "wrong", "correct", "correct"]);
    expect(rows[1]).toMatchObject({ response: "<answer>Answer 1</answer>", predictedAnswer: "Answer 1", nTurns: 1, agentOk: true, attempts: 1, phase: null });
    expect(rows[0]!.failReason).toBe("EM=0: predicted 'Answer 0' but expected ['Something else 0']");

    const conversation = await getItemConversation(t.db, run.id, "q0001");
    expect(conversation?.userPrompt).toBe("## Context\n[DOC] [TLE] Answer 1 [PAR] Passage about clue 1. [DOC] [TLE] Other 1 [PAR] Unrelated text.\n\n## Question\nWhich title belongs to clue number 1?");
    expect(conversation?.conversation[0]).toEqual({ type: "message", turn: 1, content: "<answer>Answer 1</answer>" });

    const exec = await getItemExec(t.db, run.id, "q0001");
    expect(exec).toMatchObject({ agent: "fake", outcome: "exited", exitCode: 0, stdoutTruncated: false, invocations: 1, workspacePath: workspace(run.id, "q0001") });
    expect(exec!.command.slice(2)).toEqual(["--model", "fake-model-1", "--prompt-file", promptFilePath(t.dir, run.id)]);
    expect(exec!.stdout).toBe("Reading the skill and the task…\n<answer>Answer 1</answer>\n");
    // The agent saw the prompt file and only the variables it is given.
    const report = JSON.parse(exec!.stderr) as { prompt: string; env: string[]; fakeVar: string; cwd: string };
    expect(report.prompt).toBe(AGENT_PROMPT);
    expect(report.fakeVar).toBe("passed-through");
    expect(report.env).toContain("FAKE_AGENT_MODE");
    expect(report.env).not.toContain("SKILLBOARD_TOKEN");
    expect(report.env).not.toContain("SKILLBOARD_CONFIG");

    // Correct items' workspaces are deleted; the others are kept as the agent left them.
    expect(exec!.workspaceKept).toBe(false);
    expect(existsSync(workspace(run.id, "q0001"))).toBe(false);
    expect((await getItemExec(t.db, run.id, "q0000"))!.workspaceKept).toBe(true);
    expect(readFileSync(join(workspace(run.id, "q0000"), ".agents/skills/skillopt-target/SKILL.md"), "utf8")).toBe(run.systemPrompt);
    expect(readFileSync(join(workspace(run.id, "q0000"), "task.md"), "utf8")).toBe((await getItemConversation(t.db, run.id, "q0000"))!.userPrompt);
  });

  it("keeps every workspace with keepWorkspaces, and removes them on request once the run stopped", async () => {
    const run = await agentRun("fake", { keepWorkspaces: true, model: "other-model" });
    expect(run.model).toBe("fake/other-model");
    await executeRun(t.db, run.id, { dataDir: t.dir });
    for (const row of await results(run.id)) expect(existsSync(join(workspace(run.id, row.itemId), "task.md"))).toBe(true);
    expect((await getItemExec(t.db, run.id, "q0001"))!.command).toContain("other-model");
    expect(await removeKeptWorkspaces(t.db, run.id, t.dir)).toBe(6);
    expect(existsSync(workspace(run.id, "q0000"))).toBe(false);
    expect((await getItemExec(t.db, run.id, "q0000"))!.workspaceKept).toBe(false);
  });

  it("reviews its answer on later turns with the previous attempt in task.md", async () => {
    const run = await agentRun("fake", { settings: { maxTurns: 3, diagnosticMode: true, diagnosticInstruction: "Explain first." }, keepWorkspaces: true });
    await executeRun(t.db, run.id, { dataDir: t.dir });
    const [row] = await results(run.id);
    // The seed's stop rule: after the first turn, the first reply with an answer tag ends the item.
    expect(row).toMatchObject({ nTurns: 2, attempts: 2 });
    const task = readFileSync(join(workspace(run.id, "q0000"), "task.md"), "utf8");
    expect(task).toMatch(/\n\n## Previous Attempt\n<answer>Answer 0<\/answer>\n\nReview it against the same context and question\. If needed, correct it\.$/);
    // The training readout is only shown on the first turn, as in the seed.
    expect(task).not.toContain("Training Readout");
    expect((await getItemConversation(t.db, run.id, "q0000"))!.userPrompt).toBe(task);
  });

  it("reads the final message from a file the agent writes, or from Codex-style JSONL events", async () => {
    const fileRun = await agentRun("file-answer", { items: makeItems(2) });
    expect(await executeRun(t.db, fileRun.id, { dataDir: t.dir })).toMatchObject({ status: "completed", emSum: 2 });
    expect((await results(fileRun.id))[0]!.response).toBe("The passage says so.\n<answer>Answer 0</answer>\n");

    const codexRun = await agentRun("codex-like", { items: makeItems(2), model: "gpt-test" });
    expect(await executeRun(t.db, codexRun.id, { dataDir: t.dir })).toMatchObject({ status: "completed", emSum: 2 });
    const exec = await getItemExec(t.db, codexRun.id, "q0000");
    expect(exec!.command.slice(2)).toEqual(["-m", "gpt-test", AGENT_PROMPT]);
    expect((await results(codexRun.id))[0]!.response).toBe("<answer>Answer 0</answer>");
  });

  it("caps a flooding agent's output at 1 MB per stream and still finds its answer", async () => {
    const run = await agentRun("flood", { items: makeItems(1) });
    await executeRun(t.db, run.id, { dataDir: t.dir });
    const exec = await getItemExec(t.db, run.id, "q0000");
    expect(exec).toMatchObject({ stdoutTruncated: true, stderrTruncated: true, exitCode: 0 });
    expect(exec!.stdoutBytes).toBeGreaterThan(4 * 1024 * 1024);
    expect(Buffer.byteLength(exec!.stdout)).toBeLessThan(1024 * 1024 + 200);
    expect((await results(run.id))[0]!.response).toBe("<answer>flooded</answer>");
  });

  it("makes a non-zero exit an error row with the tail of stderr, and a run where all fail a failed run", async () => {
    const run = await agentRun("fail", { items: makeItems(3) });
    const done = await executeRun(t.db, run.id, { dataDir: t.dir });
    const reason = 'error: agent "fail" exited with code 3: warming up\nfatal: the model refused the request';
    expect(done).toMatchObject({ status: "failed", nErrors: 3, nAgentOk: 0, error: `SearchQA rollout failed for all 3 items before an agent response (3x): ${reason}` });
    const [row] = await results(run.id);
    expect(row).toMatchObject({ status: "error", phase: null, agentOk: false, failReason: reason, nTurns: 0 });
    expect(await getItemExec(t.db, run.id, "q0000")).toMatchObject({ exitCode: 3, stdout: "starting\n", workspaceKept: true });
    expect(existsSync(join(workspace(run.id, "q0000"), "task.md"))).toBe(true);
  });

  it("refuses an agent whose program is not installed, and makes one that vanished before it ran an error row", async () => {
    expect((await rejectionOf(agentRun("missing", { items: makeItems(1) }))).message).toBe(
      'agent "missing": its program "skillboard-no-such-agent-program" is not installed on this server (not found on PATH)',
    );
    expect(await t.db.run.count()).toBe(0);
    // Installed when the run was created, gone when it ran.
    const bin = join(t.dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "skillboard-no-such-agent-program"), "#!/bin/sh\n", { mode: 0o755 });
    vi.stubEnv("PATH", `${bin}:${process.env.PATH}`);
    const run = await agentRun("missing", { items: makeItems(1) });
    rmSync(bin, { recursive: true });
    await executeRun(t.db, run.id, { dataDir: t.dir });
    expect((await results(run.id))[0]!.failReason).toMatch(/^error: agent "missing" could not start: spawn skillboard-no-such-agent-program ENOENT$/);
    expect(await getItemExec(t.db, run.id, "q0000")).toMatchObject({ outcome: "spawn-error", exitCode: null });
  });

  it("kills the agent's whole group at its exec timeout and records the seed's timeout row", async () => {
    const run = await agentRun("hang", { items: makeItems(1), settings: { execTimeoutS: 0.8, taskTimeoutS: 30, taskTimeoutGraceS: 0 } });
    const done = await executeRun(t.db, run.id, { dataDir: t.dir });
    expect(done).toMatchObject({ status: "failed", nTimeouts: 1 });
    expect((await results(run.id))[0]).toMatchObject({ status: "timeout", phase: "timeout", failReason: "exec-timeout-0.8s", agentOk: false });
    expect(await getItemExec(t.db, run.id, "q0000")).toMatchObject({ outcome: "timeout", exitSignal: "SIGKILL", stdout: "thinking forever\n", workspaceKept: true });
    expect(await allGone(await readPids(join(workspace(run.id, "q0000"), "pids.txt")))).toBe(true);
  });

  it("kills the group at the item's task timeout, keeping what the agent printed", async () => {
    // Turn 1 answers; turn 2 hangs, and the task timeout (1.5 s from the item's start) fires before turn 2's own 1.5 s.
    const run = await agentRun("hang-second-turn", { items: makeItems(1), settings: { maxTurns: 2, execTimeoutS: 1.5, taskTimeoutS: 0.1, taskTimeoutGraceS: 0 } });
    await executeRun(t.db, run.id, { dataDir: t.dir });
    expect((await results(run.id))[0]).toMatchObject({ status: "timeout", phase: "timeout", failReason: "task-timeout-1.5s" });
    expect(await getItemExec(t.db, run.id, "q0000")).toMatchObject({ outcome: "aborted", invocations: 2, stdout: "thinking forever\n" });
    expect(await allGone(await readPids(join(workspace(run.id, "q0000"), "pids.txt")))).toBe(true);
  });

  it("kills the agents in flight on interrupt, leaves their items unrecorded, and resumes them", async () => {
    const run = await agentRun("hang", { items: makeItems(2), settings: { concurrency: 2 } });
    const interrupt = new AbortController();
    const executing = executeRun(t.db, run.id, { dataDir: t.dir, signal: interrupt.signal });
    const pids = [...(await readPids(join(workspace(run.id, "q0000"), "pids.txt"))), ...(await readPids(join(workspace(run.id, "q0001"), "pids.txt")))];
    interrupt.abort();
    expect(await executing).toMatchObject({ status: "interrupted", nDone: 0 });
    expect(await allGone(pids)).toBe(true);
    expect(await t.db.runItemExec.count({ where: { runId: run.id } })).toBe(0);
    // Resumed with an agent that answers (the config names another program now): both items run, afresh.
    await t.db.run.update({ where: { id: run.id }, data: { configJson: JSON.stringify({ ...run.config, model: { backend: "agent", agent: "fake" } }) } });
    expect(await executeRun(t.db, run.id, { dataDir: t.dir })).toMatchObject({ status: "completed", nDone: 2, emSum: 2 });
    expect(existsSync(join(workspace(run.id, "q0000"), "pids.txt"))).toBe(false);
  });

  it("leaves no child behind after the agent exits", async () => {
    const run = await agentRun("spawner", { items: makeItems(1), keepWorkspaces: true });
    await executeRun(t.db, run.id, { dataDir: t.dir });
    expect(await allGone(await readPids(join(workspace(run.id, "q0000"), "child.pid")))).toBe(true);
  });

  it("retries failed items with fresh exec details", async () => {
    const run = await agentRun("fail", { items: makeItems(2) });
    await executeRun(t.db, run.id, { dataDir: t.dir });
    // The config now says "fail" is another program: retrying runs the failed items again.
    await t.db.run.update({ where: { id: run.id }, data: { configJson: JSON.stringify({ ...run.config, model: { backend: "agent", agent: "fake" } }) } });
    const { removed } = await retryFailedItems(t.db, run.id);
    expect(removed).toBe(2);
    expect(await executeRun(t.db, run.id, { dataDir: t.dir })).toMatchObject({ status: "completed", emSum: 2, nErrors: 0 });
    expect(await getItemExec(t.db, run.id, "q0000")).toMatchObject({ agent: "fake", exitCode: 0 });
  });

  it("refuses an agent the config does not declare, before storing anything", async () => {
    expect((await rejectionOf(agentRun("rm-rf"))).message).toMatch(/agent "rm-rf" is not configured in .*skillboard\.config\.json; configured: fake/);
    expect(await t.db.run.count()).toBe(0);
    expect((await rejectionOf(removeKeptWorkspaces(t.db, 999, t.dir))).message).toMatch(/run 999/);
  });
});

describe("agent runs without a config", () => {
  it("fails the run with the config's error when the agent disappeared", async () => {
    const run = await agentRun("fake", { items: makeItems(1) });
    vi.stubEnv("SKILLBOARD_CONFIG", join(t.dir, "gone.json"));
    await expect(executeRun(t.db, run.id, { dataDir: t.dir })).rejects.toThrow(/gone\.json: no such file/);
    expect(await getRun(t.db, run.id)).toMatchObject({ status: "failed", error: expect.stringMatching(/no such file/) });
  });
});
