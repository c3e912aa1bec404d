// The command-line interface, run as separate processes the way scripts and users call it.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSystemPrompt } from "@/lib/prompts";
import { MINI_DATASET, runCli, spawnCli, TRAINED_SKILL } from "../support/cli";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

const cli = (args: string[], input?: string, env?: Record<string, string>) => runCli(args, { databaseUrl: t.url, input, env });
const jsonLines = (text: string) => text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe("score", () => {
  it("scores JSONL from stdin, one line out per line in, in order", async () => {
    const input = [
      { response: "The capital is...\n<answer>Paris</answer>", answers: ["Paris"] },
      { response: "<answer>the Eiffel Tower!</answer>", answers: ["Eiffel Tower", "Tour Eiffel"] },
      { response: "I think it is London", answers: ["Paris"] },
      { response: "<answer>New York City</answer>", answers: ["New York"] },
    ].map((line) => JSON.stringify(line)).join("\n");
    const result = await cli(["score"], `${input}\n`);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      '{"em": 1.0, "f1": 1.0, "sub_em": 1.0, "predicted_answer": "Paris"}',
      '{"em": 1.0, "f1": 1.0, "sub_em": 1.0, "predicted_answer": "the Eiffel Tower!"}',
      '{"em": 0.0, "f1": 0.0, "sub_em": 0.0, "predicted_answer": "I think it is London"}',
      '{"em": 0.0, "f1": 0.8, "sub_em": 1.0, "predicted_answer": "New York City"}',
      "",
    ]);
  });

  it("names the line and field of bad input and exits 2", async () => {
    const result = await cli(["score"], '{"response": "x", "answers": ["a"]}\n{"response": "y", "answers": "a"}\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('stdin: line 2: field "answers"');
  });
});

describe("prompt", () => {
  it("writes the seed's system and user prompts for each item", async () => {
    const item = { id: "x1", question: "Who?", context: "[DOC] [TLE] A [PAR] b", answers: ["A"], diagnostic_trace_context: "trace" };
    const result = await cli(["prompt", "--skill", TRAINED_SKILL, "--diagnostic-instruction", "Explain."], `${JSON.stringify(item)}\n`);
    expect(result.code).toBe(0);
    const [row] = jsonLines(result.stdout);
    expect(row!.id).toBe("x1");
    expect(row!.system).toBe(buildSystemPrompt(readFileSync(TRAINED_SKILL, "utf8")));
    expect(row!.user).toBe(
      "## Context\n[DOC] [TLE] A [PAR] b\n\n## Question\nWho?\n\n## Previous Codex Trace Snapshot\n" +
        "This is a partial transcript from an earlier attempt. Use it as your current reasoning context.\n\ntrace\n\n## Training Readout\nExplain.",
    );
  });
});

describe("dataset and skill", () => {
  it("imports a dataset, prints its id, and lists it", async () => {
    const imported = await cli(["dataset", "import", MINI_DATASET, "--name", "mini"]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe("1\n");
    const listed = await cli(["dataset", "list"]);
    expect(jsonLines(listed.stdout)).toEqual([{ id: 1, name: "mini", item_count: 12 }]);
    // The file's own sha256 is recorded, the one `sha256sum` prints (the dataset page shows it).
    const stored = await t.db.dataset.findUniqueOrThrow({ where: { id: 1 } });
    expect(stored.fileSha256).toBe(createHash("sha256").update(readFileSync(MINI_DATASET)).digest("hex"));
  });

  it("rejects a broken dataset naming file, line and field, and stores nothing", async () => {
    const file = join(t.dir, "broken.jsonl");
    writeFileSync(file, '{"id": "a", "question": "q", "answers": ["x"]}\n{"id": "b", "question": "q", "answers": []}\n');
    const result = await cli(["dataset", "import", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.jsonl: line 2: field "answers"/);
    expect(result.stdout).toBe("");
    expect(await t.db.dataset.count()).toBe(0);
    expect(await t.db.datasetItem.count()).toBe(0);
  });

  it("adds a skill version once per distinct text", async () => {
    const first = await cli(["skill", "add", TRAINED_SKILL, "--name", "qa"]);
    const again = await cli(["skill", "add", TRAINED_SKILL, "--name", "qa"]);
    expect(first.stdout).toBe("1\n");
    expect(again.stdout).toBe("1\n");
    expect(again.stderr).toContain("unchanged");
    const listed = jsonLines((await cli(["skill", "list"])).stdout);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: 1, skill: "qa", version: 1 });
    expect(listed[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a skill file that is not UTF-8, as a dataset is refused, and stores nothing", async () => {
    const latin1 = join(t.dir, "latin1.md");
    writeFileSync(latin1, Buffer.from("# Compétences\nRéponds en français.\n", "latin1"));
    const result = await cli(["skill", "add", latin1]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${latin1}: is not valid UTF-8 text (save it as UTF-8)`);
    expect(jsonLines((await cli(["skill", "list"])).stdout)).toEqual([]);
  });
});

describe("run and export", () => {
  let server: FakeOpenAIServer;
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("rejects bad run options naming the option, and creates no run", async () => {
    for (const [flag, value] of [["--concurrency", "0"], ["--concurrency", "600"], ["--max-turns", "two"], ["--backend", "gemini"]] as const) {
      const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, flag, value]);
      expect(result.code, `${flag} ${value}`).toBe(2);
      expect(result.stderr).toContain(flag);
    }
    expect(await t.db.run.count()).toBe(0);
  });

  it("runs on the offline baseline with no model configured and prints the summary line", async () => {
    const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL]);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")[0]).toBe("run 1 started");
    expect(result.stderr).toMatch(/\n {2}\[rollout\] 12\/12 \(acc=\d\.\d{3}\) id=\S+ hard=[01]\n/);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0]!)).toEqual(["run_id", "status", "n", "em", "f1", "sub_em", "errors", "timeouts", "wall_s"]);
    expect(lines[0]).toMatchObject({ run_id: 1, status: "completed", n: 12, errors: 0, timeouts: 0 });
  });

  it("queues a run with --detach, returns at once with its id, and a worker process executes it", async () => {
    const queued = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--base-url", server.baseURL, "--detach"]);
    expect(queued.code).toBe(0);
    expect(JSON.parse(queued.stdout)).toEqual({ run_id: 1 });
    expect(queued.stderr).toContain("run 1 queued for the workers");
    expect(server.stats().requests).toBe(0);
    expect(await t.db.run.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject({ status: "queued", nDone: 0 });

    const worker = spawnCli(["worker", "--name", "w1"], { databaseUrl: t.url, stdio: ["ignore", "ignore", "pipe"] });
    try {
      for (let waited = 0; (await t.db.run.findUniqueOrThrow({ where: { id: 1 } })).status !== "completed"; waited += 100) {
        expect(waited).toBeLessThan(20_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      worker.kill("SIGTERM");
      await new Promise((resolve) => worker.once("exit", resolve));
    }
    expect(await t.db.run.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject({ status: "completed", nDone: 12 });
    expect(server.stats().requests).toBe(12);
  });

  it("runs against an OpenAI-compatible server and exports the seed's results.jsonl rows", async () => {
    const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--base-url", server.baseURL, "--model", "m1", "--concurrency", "3"]);
    expect(result.code).toBe(0);
    expect(server.stats().requests).toBe(12);
    expect(server.requests[0]!.body.max_completion_tokens).toBe(16384);
    expect(server.requests[0]!.model).toBe("m1");

    const exported = await cli(["export", "1", "--format", "seed"]);
    expect(exported.code).toBe(0);
    const rows = exported.stdout.trim().split("\n");
    expect(rows).toHaveLength(12);
    const row = JSON.parse(rows[0]!) as Record<string, unknown>;
    expect(Object.keys(row)).toEqual(["id", "question", "em", "f1", "sub_em", "hard", "soft", "predicted_answer", "gold_answers", "response", "fail_reason", "agent_ok", "n_turns"]);
    // Python's json.dumps: ", " / ": " separators and floats as floats.
    expect(rows[0]).toMatch(/^\{"id": "[^"]+", "question": .*"em": (1|0)\.0, "f1": /);

    const csv = await cli(["export", "1", "--format", "csv"]);
    expect(csv.stdout.split("\r\n")[0]).toBe("id,trial,question,gold_answers,predicted_answer,em,f1,sub_em,status,fail_reason,latency_ms,prompt_tokens,completion_tokens,turns");
  });

  it("samples each item --trials times, reports consistency and pass@k, and exports and re-imports every trial", async () => {
    const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--base-url", server.baseURL, "--trials", "3"]);
    expect(result.code).toBe(0);
    expect(server.stats().requests).toBe(36);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ n: 36, trials: 3, items: 12 });
    // The fake server answers deterministically: every item is always right or always wrong.
    expect((summary.always_right as number) + (summary.always_wrong as number)).toBe(12);
    expect(summary.flaky).toBe(0);
    expect(summary.pass_at_3).toBe(summary.pass_hat_3);
    expect(result.stderr).toContain("12 items × 3 trials");

    const jsonl = jsonLines((await cli(["export", "1", "--format", "jsonl"])).stdout);
    expect(jsonl).toHaveLength(36);
    expect(jsonl.map((row) => row.trial).sort()).toEqual([...Array(12).fill(1), ...Array(12).fill(2), ...Array(12).fill(3)]);
    const seed = await cli(["export", "1", "--format", "seed"]);
    expect(seed.stdout.trim().split("\n")).toHaveLength(12);
    expect(seed.stderr).toContain("only trial 1 is written");

    const file = join(t.dir, "trials.jsonl");
    writeFileSync(file, jsonLines((await cli(["export", "1", "--format", "jsonl"])).stdout).map((row) => JSON.stringify(row)).join("\n"));
    const imported = await cli(["import", file, "--dataset", "1", "--skill", TRAINED_SKILL]);
    expect(imported.code).toBe(0);
    const summaryJson = await t.db.run.findUniqueOrThrow({ where: { id: 2 } });
    expect(summaryJson.nDone).toBe(36);
    expect(JSON.parse(summaryJson.configJson).settings.trials).toBe(3);
  });

  it("refuses --trials outside 1–100 naming the option", async () => {
    const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL, "--base-url", server.baseURL, "--trials", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--trials");
    expect(await t.db.run.count()).toBe(0);
  });

  it("stops with the server's message and a non-zero exit when the key is refused, never printing the key", async () => {
    server.setOptions({ requireApiKey: "right-key-456" });
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "wrong-key-123" };
    const result = await cli(["run", "--dataset", MINI_DATASET, "--skill", TRAINED_SKILL], undefined, env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/401/);
    expect(result.stderr + result.stdout).not.toContain("wrong-key-123");
    expect(jsonLines(result.stdout)[0]).toMatchObject({ status: "failed", n: 0 });
    expect(server.stats().requests).toBeLessThanOrEqual(16);

    // With the right key, resuming the same run completes it.
    const resumed = await cli(["run", "--resume", "1"], undefined, { ...env, OPENAI_API_KEY: "right-key-456" });
    expect(resumed.code).toBe(0);
    expect(jsonLines(resumed.stdout)[0]).toMatchObject({ status: "completed", n: 12 });
    const stored = await t.db.run.findUniqueOrThrow({ where: { id: 1 } });
    expect(JSON.stringify(stored)).not.toContain("right-key-456");
  });

  it("is what `npm run -s cli` runs, with nothing but data on stdout", async () => {
    const child = spawn("npm", ["run", "-s", "cli", "--", "score"], { env: { ...process.env, DATABASE_URL: t.url } });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end('{"response": "<answer>x</answer>", "answers": ["x"]}\n');
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(stdout).toBe('{"em": 1.0, "f1": 1.0, "sub_em": 1.0, "predicted_answer": "x"}\n');
  });
});
