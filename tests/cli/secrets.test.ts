// Keys never reach the database, the exports or the log: a key in a model server URL is refused before anything runs,
// and whatever secret a model server echoes in its errors is redacted before it is stored or printed.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "../support/cli";
import { faultAlways, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { expectNoSecretInDatabase, expectNoSecret as expectNoneOf } from "../support/secrets";
import { createTestDb, type TestDatabase } from "../support/test-db";

const MINI = "tests/fixtures/datasets/searchqa-mini.jsonl";
const SKILL = "tests/fixtures/skills/searchqa-trained.md";
const URL_KEY = "sk-live-inurl-4d8f2a9c7b1e";
const API_KEY = "env-openai-key-93c1f7a2d4";
const UPSTREAM_PASSWORD = "upstream-pw-5a7c9e1b3d";
const BEARER = "eyJhbGciOiJIUzI1NiJ9.leaked-bearer-77aa";
const OTHER_SK = "sk-proj-echoed0123456789ABCDEF";
const SECRETS = [URL_KEY, API_KEY, UPSTREAM_PASSWORD, BEARER, OTHER_SK];

let t: TestDatabase;
let server: FakeOpenAIServer;
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
  await t.close();
});

const cli = (args: string[], env?: Record<string, string>) => runCli(args, { databaseUrl: t.url, env });

const expectNoSecret = (text: string, where: string) => expectNoneOf(text, SECRETS, where);

function withKeyInURL(): string {
  const url = new URL(server.baseURL);
  url.username = "user";
  url.password = URL_KEY;
  return url.toString();
}

describe("a key in a model server URL", () => {
  it.each([
    ["OPENAI_BASE_URL", (): [string[], Record<string, string>] => [[], { OPENAI_BASE_URL: withKeyInURL() }]],
    ["AZURE_OPENAI_ENDPOINT", (): [string[], Record<string, string>] => [["--backend", "azure"], { AZURE_OPENAI_ENDPOINT: withKeyInURL(), AZURE_OPENAI_API_KEY: API_KEY, AZURE_OPENAI_DEPLOYMENT: "d" }]],
    ["--base-url", (): [string[], Record<string, string>] => [["--base-url", withKeyInURL()], {}]],
  ])("in %s is refused before the run starts, without repeating it", async (setting, arrange) => {
    const [args, env] = arrange();
    const result = await cli(["run", "--dataset", MINI, "--skill", SKILL, "--model", "m", ...args], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${setting} has credentials in it`);
    expectNoSecret(result.stderr + result.stdout, "the CLI's output");
    expect(await t.db.run.count()).toBe(0);
    expect(server.stats().requests).toBe(0);
  });

  it("in OPENAI_BASE_URL is refused when resuming a run too", async () => {
    const first = await cli(["run", "--dataset", MINI, "--skill", SKILL, "--model", "m", "--limit", "2"], { OPENAI_BASE_URL: server.baseURL });
    expect(first.code).toBe(0);
    const resumed = await cli(["run", "--resume", "1"], { OPENAI_BASE_URL: withKeyInURL() });
    expect(resumed.code).toBe(2);
    expectNoSecret(resumed.stderr + resumed.stdout, "the CLI's output");
  });
});

describe("secrets a model server echoes in its errors", () => {
  // A proxy in front of the model that quotes everything back: its upstream URL with credentials, the bearer token it
  // was sent, the configured key and another sk- key.
  const echo = (status: number) => ({
    kind: "status" as const,
    status,
    body: JSON.stringify({
      error: { message: `upstream http://proxy:${UPSTREAM_PASSWORD}@10.0.0.9/v1 refused Authorization: Bearer ${BEARER} (key ${API_KEY}, also tried ${OTHER_SK})` },
    }),
  });

  it("never reach a result row, a run error, any table, an export or the CLI's output", async () => {
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: API_KEY };
    const outputs: CliResult[] = [];
    // Every item fails with a retryable 500 (stored as the items' fail reasons)…
    server.setOptions({ faults: faultAlways(() => true, echo(500)) });
    outputs.push(await cli(["run", "--dataset", MINI, "--skill", SKILL, "--model", "m", "--max-retries", "0", "--concurrency", "4"], env));
    expect(outputs[0]!.code).toBe(1);
    const errorRows = await t.db.runResult.findMany({ where: { runId: 1 } });
    expect(errorRows.length).toBeGreaterThan(0);
    expect(errorRows.every((row) => row.status === "error" && row.failReason.includes("[redacted]"))).toBe(true);
    // …and a 401 stops the next run at once (stored as the run's error).
    server.setOptions({ faults: faultAlways(() => true, echo(401)) });
    outputs.push(await cli(["run", "--dataset", MINI, "--skill", SKILL, "--model", "m", "--max-retries", "0"], env));
    expect(outputs[1]!.code).toBe(1);
    const failed = await t.db.run.findUniqueOrThrow({ where: { id: 2 } });
    expect(failed.error).toContain("401");
    expect(failed.error).toContain("[redacted]");

    for (const runId of ["1", "2"]) for (const format of ["csv", "jsonl", "seed"]) outputs.push(await cli(["export", runId, "--format", format]));
    expect(outputs.slice(2).every((result) => result.code === 0)).toBe(true);
    expect(outputs[2]!.stdout).toContain("[redacted]");
    outputs.forEach((result, index) => expectNoSecret(result.stdout + result.stderr, `CLI call ${index}`));
    expectNoSecretInDatabase(t.url, SECRETS);
  }, 60_000);
});
