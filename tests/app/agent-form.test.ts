// The agent backend from the dashboard's side: the New run form offers the server's agents by name only,
// refuses any other name, and stores what it chose; workspace files are served only from inside a workspace.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { itemWorkspaceDirectory } from "@/lib/agent";
import { addSkillVersion, getRun, importDataset, listRunRecords } from "@/lib/db";
import { executeRun } from "@/lib/rollout";
import { describeBackends } from "@/app/_lib/backends";
import { startRunDefaults } from "@/app/runs/_lib/start-run-defaults";
import { NOT_STARTED, startRunFromForm } from "@/app/runs/_lib/start-run-form";
import { workspaceFilePath, workspaceFileResponse } from "@/app/_lib/workspace-file";
import { AGENTS_CONFIG } from "../support/agents";
import { makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

const ENV = { SKILLBOARD_CONFIG: AGENTS_CONFIG };
let t: TestDatabase;
let datasetId: number;
let skillVersionId: number;
beforeEach(async () => {
  t = createTestDb();
  datasetId = (await importDataset(t.db, { name: "d", fileName: "d.jsonl", format: "jsonl", hash: "h", items: makeItems(4, (i) => i === 0) })).id;
  skillVersionId = (await addSkillVersion(t.db, { name: "s", content: "Answer briefly." })).version.id;
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await t.close();
});

function form(fields: Record<string, string | undefined>): FormData {
  const data = new FormData();
  const base: Record<string, string | undefined> = {
    datasetId: String(datasetId), skillVersionId: String(skillVersionId), backend: "agent", agent: "fake", model: "",
    concurrency: "2", maxTurns: "1", execTimeoutS: "120", taskTimeoutS: "600", maxCompletionTokens: "16384",
    maxRetries: "5", temperature: "", selection: "all", name: "",
  };
  for (const [key, value] of Object.entries({ ...base, ...fields })) if (value !== undefined) data.set(key, value);
  return data;
}

describe("the agent backend in the New run form", () => {
  it("lists the configured agents by name and description, never their commands or environment", () => {
    const agentOption = describeBackends(ENV).options.find((option) => option.backend === "agent")!;
    expect(agentOption).toMatchObject({ label: "Agent (command line)", configured: true });
    expect(agentOption.agents?.map((agent) => agent.name)).toEqual(["fake", "hang", "hang-second-turn", "spawner", "flood", "fail", "file-answer", "codex-like", "missing"]);
    expect(agentOption.agents?.[0]).toEqual({ name: "fake", preset: "generic", description: expect.stringContaining("Test agent"), defaultModel: "fake-model-1" });
    const shown = JSON.stringify(describeBackends(ENV));
    expect(shown).not.toContain(".mjs");
    expect(shown).not.toContain("FAKE_AGENT");
  });

  it("is offered disabled, with a hint, when no agent is configured or the file has a mistake", () => {
    const none = describeBackends({}).options.find((option) => option.backend === "agent")!;
    expect(none).toMatchObject({ configured: false, agents: [] });
    expect(none.hint).toMatch(/skillboard\.config\.json/);
    const broken = describeBackends({ SKILLBOARD_CONFIG: join(t.dir, "missing.json") }).options.find((option) => option.backend === "agent")!;
    expect(broken.configured).toBe(false);
    expect(broken.hint).toMatch(/The agents file has a mistake: .*missing\.json: no such file/);
  });

  it("stores a queued agent run with the agent's name, model and keep-workspaces choice", async () => {
    const result = await startRunFromForm(t.db, form({ model: "m2", keepWorkspaces: "on" }), ENV);
    expect(result).toEqual({ ok: true, data: { runId: expect.any(Number) } });
    const [run] = await listRunRecords(t.db);
    expect(run).toMatchObject({ backend: "agent", model: "fake/m2", status: "queued" });
    expect(run!.config.model).toEqual({ backend: "agent", agent: "fake", model: "m2", keepWorkspaces: true });
    expect(run!.systemPrompt).toMatch(/^---\nname: "skillopt-target"\n/);

    // Copying its settings to a new run chooses the same agent and model.
    const defaults = startRunDefaults({ backends: describeBackends(ENV), from: run });
    expect(defaults).toMatchObject({ backend: "agent", agent: "fake", model: "m2", keepWorkspaces: true });
  });

  it("refuses an agent that is not in the config, and the backend when none is configured", async () => {
    for (const agent of ["rm -rf /", "nope", ""]) {
      const result = await startRunFromForm(t.db, form({ agent }), ENV);
      expect(result).toEqual({ ok: false, error: NOT_STARTED, fields: { agent: agent ? `Agent "${agent}" is not configured on this server` : "Choose an agent" } });
    }
    // The model becomes an argument of the agent's command: a plain name only, never an option.
    const option = await startRunFromForm(t.db, form({ model: "--dangerously-bypass-approvals-and-sandbox" }), ENV);
    expect(option).toEqual({ ok: false, error: NOT_STARTED, fields: { model: expect.stringMatching(/^an agent's model must be a plain name/) } });
    expect((await startRunFromForm(t.db, form({ model: "a b" }), ENV)).ok).toBe(false);
    const unconfigured = await startRunFromForm(t.db, form({}), {});
    expect(unconfigured.ok ? "" : unconfigured.fields?.backend).toMatch(/^Agent \(command line\) is not configured on this server/);
    expect(await listRunRecords(t.db)).toEqual([]);
  });
});

describe("workspaceFileResponse", () => {
  it("serves a file of a kept workspace as text, and nothing outside it", async () => {
    const result = await startRunFromForm(t.db, form({ agent: "file-answer" }), ENV);
    const runId = result.ok ? result.data.runId : 0;
    vi.stubEnv("SKILLBOARD_CONFIG", AGENTS_CONFIG);
    await executeRun(t.db, runId, { dataDir: t.dir });
    vi.unstubAllEnvs();
    expect((await getRun(t.db, runId)).status).toBe("completed");
    // Item q0000 was wrong, so its workspace is kept.
    const ws = itemWorkspaceDirectory(t.dir, runId, "q0000");
    writeFileSync(join(t.dir, "secret.txt"), "top secret");
    symlinkSync(join(t.dir, "secret.txt"), join(ws, "link.txt"));
    mkdirSync(join(ws, "sub"));
    const get = (path: string, itemId = "q0000", id = runId) => workspaceFileResponse(t.db, { runId: id, itemId, path }, t.dir);

    const answer = await get("out/answer.txt");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(await answer.text()).toBe("The passage says so.\n<answer>Answer 0</answer>\n");
    const binary = await get("notes.bin");
    expect(binary.headers.get("content-type")).toBe("application/octet-stream");
    expect(binary.headers.get("content-disposition")).toBe('attachment; filename="notes.bin"');
    expect(workspaceFilePath(runId, "q0000", "out/answer.txt")).toBe(`/api/runs/${runId}/workspace-file?item=q0000&path=out%2Fanswer.txt`);

    // A missing item or path, or a malformed run id, is a 400 before this is called (see http-edge.test.ts).
    const refused = [
      await get("../../../../secret.txt"), await get("link.txt"), await get("/etc/passwd"), await get("sub"),
      await get("out/answer.txt", "q0001"), // correct item: its workspace was deleted
      await get("task.md", "../q0000"), await get("task.md", "q0000", 999),
    ];
    for (const response of refused) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "no such workspace file" });
    }
    expect((await get("task.md")).status).toBe(200);
  });
});
