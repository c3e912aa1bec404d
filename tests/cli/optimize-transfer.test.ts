import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSkillVersion, listOptimizations, listSkillVersions } from "@/lib/db";
import { runCli } from "../support/cli";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { optimizerAnswer } from "../support/fake-optimizer";
import { SMALL_LOOP, writeOptimizationFiles } from "../support/optimize-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

const UPSTREAM_FIXTURE = "tests/fixtures/skillopt-output";
let server: FakeOpenAIServer;
let dir: string;
let database: TestDatabase;
const cli = (args: string[]) => runCli(args, { databaseUrl: database.url, env: { OPENAI_API_KEY: "sk-test" } });

function readTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(relative(root, path), readFileSync(path, "utf8"));
    }
  };
  walk(root);
  return out;
}

async function status(id: string) {
  const result = await cli(["optimize", "status", id]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { status: string; source: string; stages: { key: string; kind: string; epoch: number; action: string; approval: string | null; candidate_version_id: number | null; gate: unknown }[]; best_version_id: number; current_version_id: number };
}

beforeAll(async () => {
  server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req) });
  dir = mkdtempSync(join(tmpdir(), "skillboard-optimize-transfer-"));
  database = createTestDb();
  const inputs = writeOptimizationFiles(dir);
  const result = await cli(["optimize", "start", "--train", inputs.train, "--val", inputs.val, "--test", inputs.test, "--skill", inputs.skill, "--base-url", server.baseURL, "--model", "fake", ...SMALL_LOOP]);
  expect(result.code, result.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await server.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("optimize export / import (skillopt)", () => {
  it("round-trips: export -> import -> export gives identical files, and the import shows the same stages and skills", async () => {
    const first = join(dir, "first");
    const exported = await cli(["optimize", "export", "1", "--format", "skillopt", "--out", first]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe(`${first}\n`);
    expect(exported.stderr).toMatch(/files written in SkillOpt's layout/);

    const imported = await cli(["optimize", "import", first, "--name", "round-trip"]);
    expect(imported.code, imported.stderr).toBe(0);
    const id = imported.stdout.trim();
    expect(id).toMatch(/^\d+$/);

    const second = join(dir, "second");
    expect((await cli(["optimize", "export", id, "--format", "skillopt", "--out", second])).code).toBe(0);
    const [a, b] = [readTree(first), readTree(second)];
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [path, content] of a) expect(b.get(path), path).toBe(content);

    const [original, copy] = [await status("1"), await status(id)];
    expect(copy.source).toBe("imported");
    expect(copy.status).toBe("completed");
    const shape = (s: typeof original) => s.stages.map(({ key, kind, epoch, action, approval, gate }) => ({ key, kind, epoch, action, approval, gate }));
    expect(shape(copy)).toEqual(shape(original));
    const text = async (versionId: number | null) => (versionId === null ? null : (await getSkillVersion(database.db, versionId)).content);
    for (const [index, stage] of original.stages.entries()) expect(await text(copy.stages[index]!.candidate_version_id), stage.key).toBe(await text(stage.candidate_version_id));
    expect(await text(copy.best_version_id)).toBe(await text(original.best_version_id));
    expect(await text(copy.current_version_id)).toBe(await text(original.current_version_id));
    // The candidates are versions of the named skill, each with its parent and the imported optimisation as origin.
    const candidate = await getSkillVersion(database.db, copy.stages.find((s) => s.key === "step:0001")!.candidate_version_id!);
    expect(candidate).toMatchObject({ skillName: "round-trip", originOptimizationId: Number(id), originStepKey: "step:0001" });
    expect(candidate.parentVersionId).not.toBeNull();

    const list = await cli(["optimize", "list"]);
    expect(list.stdout).toContain(`"id":${id},`);
    const resumed = await cli(["optimize", "start", "--resume", id]);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toMatch(/imported from a SkillOpt output directory; it cannot run here/);
  }, 60_000);

  it("imports a directory laid out as upstream's trainer writes it, leaving its credential keys out", async () => {
    const result = await cli(["optimize", "import", UPSTREAM_FIXTURE, "--name", "upstream-fixture"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("config.json: left out credential keys azure_api_key");
    const id = result.stdout.trim();
    const shown = await status(id);
    expect(shown.stages.map((s) => [s.key, s.action])).toEqual([
      ["baseline", "baseline"], ["step:0001", "accept_new_best"], ["step:0002", "skip_no_patches"], ["slow:01", "inject_placeholder"], ["meta:01", "skip_first_epoch"], ["final", "final"],
    ]);
    const fixture = readTree(UPSTREAM_FIXTURE);
    expect((await getSkillVersion(database.db, shown.best_version_id)).content).toBe(fixture.get("best_skill.md"));
    expect((await getSkillVersion(database.db, shown.current_version_id)).content).toBe(fixture.get("skills/skill_v0002.md"));

    const out = join(dir, "upstream-again");
    expect((await cli(["optimize", "export", id, "--format", "skillopt", "--out", out])).code).toBe(0);
    const again = readTree(out);
    for (const [path, content] of fixture) {
      if (path === "runtime_state.json") continue; // not exported (absolute paths; upstream resumes from history.json)
      if (path === "config.json" || path === "summary.json") expect(again.get(path), path).toBe(content.replace(/\n *"azure_api_key": "sk-1\.\.\.wxyz",/, ""));
      else expect(again.get(path), path).toBe(content);
    }
    expect(readFileSync(join(out, "config.json"), "utf8")).not.toContain("azure_api_key");
  });

  it("refuses bad directories with exit 2, naming the file and field, and stores nothing", async () => {
    const before = { optimizations: (await listOptimizations(database.db)).length, versions: (await listSkillVersions(database.db)).length };
    const broken = (name: string, change: (root: string) => void) => {
      const root = join(dir, `bad-${name}`);
      cpSync(UPSTREAM_FIXTURE, root, { recursive: true });
      change(root);
      return root;
    };
    const cases: [string, (root: string) => void, RegExp][] = [
      ["no-history", (root) => rmSync(join(root, "history.json")), /history\.json: missing/],
      ["step-type", (root) => {
        const history = JSON.parse(readFileSync(join(root, "history.json"), "utf8")) as Record<string, unknown>[];
        history[1]!.step = "two";
        writeFileSync(join(root, "history.json"), JSON.stringify(history));
      }, /history\.json: \[1\]\.step: expected an integer, got "two"/],
      ["patch-json", (root) => writeFileSync(join(root, "steps/step_0001/patches/minibatch_fail_000.json"), "{not json"), /steps\/step_0001\/patches\/minibatch_fail_000\.json: not valid JSON/],
      ["slow-action", (root) => writeFileSync(join(root, "slow_update/epoch_01/slow_result.json"), '{"epoch": 1}'), /slow_update\/epoch_01\/slow_result\.json: action: expected a string/],
      ["no-initial", (root) => rmSync(join(root, "skills/skill_v0000.md")), /skills\/skill_v0000\.md: missing/],
    ];
    for (const [name, change, message] of cases) {
      const result = await cli(["optimize", "import", broken(name, change), "--name", `bad-${name}`]);
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toMatch(message);
      expect(result.stdout, name).toBe("");
    }
    expect((await listOptimizations(database.db)).length).toBe(before.optimizations);
    expect((await listSkillVersions(database.db)).length).toBe(before.versions);
  });

  it("refuses to export into a non-empty directory unless --force", async () => {
    const out = join(dir, "occupied");
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "notes.txt"), "mine");
    const refused = await cli(["optimize", "export", "1", "--format", "skillopt", "--out", out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not empty \(use --force/);
    expect(readdirSync(out)).toEqual(["notes.txt"]);
    const forced = await cli(["optimize", "export", "1", "--format", "skillopt", "--out", out, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(out, "notes.txt"), "utf8")).toBe("mine");
    expect(readdirSync(out)).toContain("history.json");
    expect((await cli(["optimize", "export", "1", "--format", "json", "--out", join(dir, "x")])).code).toBe(2);
  });
});
