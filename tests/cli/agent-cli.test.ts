// `run --agent NAME` from the command line: the fake agents run in workspaces next to the database, and
// Ctrl-C or a timeout leaves no agent process behind.
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { itemWorkspaceDirectory } from "@/lib/agent";
import { getItemExec, getRun } from "@/lib/db";
import { AGENTS_CONFIG, allGone, readPids, untouched } from "../support/agents";
import { MINI_DATASET, runCli, spawnCli, TRAINED_SKILL } from "../support/cli";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

const ENV = { SKILLBOARD_CONFIG: AGENTS_CONFIG };
const cli = (args: string[], env: Record<string, string> = ENV) => runCli(args, { databaseUrl: t.url, env });
const dataDir = () => dirname(t.url.slice("file:".length));

describe("run --agent", () => {
  it("runs every item through the agent and prints the summary", async () => {
    const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--agent", "fake", "--limit", "4", "--concurrency", "2"]);
    expect(result.stderr).toMatch(/^run 1 started\n/);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ run_id: 1, status: "completed", n: 4, errors: 0, timeouts: 0 });
    expect(result.stderr).toMatch(/\[rollout\] 4\/4 \(acc=/);
    const run = await getRun(t.db, 1);
    expect(run).toMatchObject({ backend: "agent", model: "fake/fake-model-1" });
    expect(run.config.model).toEqual({ backend: "agent", agent: "fake" });
    const exec = await getItemExec(t.db, 1, "sq-001");
    expect(exec).toMatchObject({ agent: "fake", exitCode: 0, workspacePath: itemWorkspaceDirectory(dataDir(), 1, "sq-001") });
  });

  it("keeps every workspace with --keep-workspaces", async () => {
    const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--agent", "fake", "--limit", "3", "--keep-workspaces", "--model", "m9"]);
    expect(result.code).toBe(0);
    expect(readdirSync(join(dataDir(), "runs", "1", "workspaces")).sort()).toEqual(["sq-001", "sq-002", "sq-003"]);
    expect((await getRun(t.db, 1)).config.model).toEqual({ backend: "agent", agent: "fake", model: "m9", keepWorkspaces: true });
  });

  it("refuses an agent the config does not declare, and agent options without an agent", async () => {
    const unknown = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--agent", "sh"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--agent: agent "sh" is not configured in .*skillboard\.config\.json; configured: fake, /);
    const noConfig = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--agent", "fake"], {});
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toMatch(/not found; set SKILLBOARD_CONFIG or create it/);
    const optionAsModel = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--agent", "fake", "--model=-rf"]);
    expect(optionAsModel.code).toBe(2);
    expect(optionAsModel.stderr).toMatch(/run: model\.model: an agent's model must be a plain name/);
    const keepAlone = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--backend", "baseline", "--keep-workspaces"]);
    expect(keepAlone.code).toBe(2);
    expect(keepAlone.stderr).toMatch(/--keep-workspaces: only with --agent NAME/);
    const noName = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--backend", "agent"]);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/--backend agent needs --agent NAME/);
    expect(await t.db.run.count()).toBe(0);
  });

  it("times an agent out, killing its whole group, and fails the run as the seed does", async () => {
    const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--agent", "hang", "--limit", "1", "--exec-timeout", "1", "--task-timeout-grace", "0"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "failed", n: 1, timeouts: 1 });
    expect(result.stderr).toMatch(/failed for all 1 items before an agent response \(1x\): exec-timeout-1s/);
    expect(await allGone(await readPids(join(itemWorkspaceDirectory(dataDir(), 1, "sq-001"), "pids.txt")))).toBe(true);
  });

  it("stops on Ctrl-C with the agents' groups killed, and resumes", async () => {
    const child = spawnCli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--agent", "hang", "--limit", "2"], { databaseUrl: t.url, env: ENV });
    child.stdin!.end();
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const pidFiles = ["sq-001", "sq-002"].map((id) => join(itemWorkspaceDirectory(dataDir(), 1, id), "pids.txt"));
    const pids = (await Promise.all(pidFiles.map((file) => readPids(file, 20_000)))).flat();
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("resume with --resume 1");
    expect(await allGone(pids)).toBe(true);
    expect((await getRun(t.db, 1)).status).toBe("interrupted");

    // Resumed with an agent that answers: the config given to the resuming process names another program.
    await t.db.run.update({ where: { id: 1 }, data: { configJson: JSON.stringify({ ...(await getRun(t.db, 1)).config, model: { backend: "agent", agent: "fake" } }) } });
    const resumed = await cli(["run", "--resume", "1"]);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: "completed", n: 2 });
    expect(existsSync(pidFiles[0]!)).toBe(false);
  }, 60_000);

  it("after a kill -9, the resume first ends the agents the dead process left running", async () => {
    const child = spawnCli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--agent", "hang", "--limit", "2"], { databaseUrl: t.url, env: ENV });
    child.stdin!.end();
    const exited = new Promise((resolve) => child.on("close", resolve));
    const pidFiles = ["sq-001", "sq-002"].map((id) => join(itemWorkspaceDirectory(dataDir(), 1, id), "pids.txt"));
    const pids = (await Promise.all(pidFiles.map((file) => readPids(file, 20_000)))).flat();
    child.kill("SIGKILL");
    await exited;
    // Nothing could stop them: the agents (and what they started) outlive the process that ran them. The CLI has been
    // reaped, so the kernel is done with its death (its children reparented, any parent-death signal already queued).
    expect(pids.every(untouched)).toBe(true);

    await t.db.run.update({ where: { id: 1 }, data: { configJson: JSON.stringify({ ...(await getRun(t.db, 1)).config, model: { backend: "agent", agent: "fake" } }) } });
    const resumed = await cli(["run", "--resume", "1"]);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: "completed", n: 2 });
    expect(await allGone(pids)).toBe(true);
  }, 60_000);
});
