/**
 * The production server with model credentials: a key in a model server URL stops it from starting (without
 * repeating the key), and what a model server echoes back in its errors (its upstream URL with a password, the bearer
 * token, the configured key, other sk- keys) reaches neither the database, the run page, a download nor the log.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRunFor } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { freePort, PROJECT_DIR } from "../auth/server-process";
import { BUILD_TIMEOUT_MS, ensureBuild } from "../support/app-server";
import { faultAlways, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { expectNoSecret, expectNoSecretInDatabase } from "../support/secrets";
import { withAppServer } from "../support/app-server-hooks";

const API_KEY = "env-openai-key-71b3e9d5c2";
const URL_KEY = "sk-live-inurl-0c6e2f8a4b9d";
const UPSTREAM_PASSWORD = "upstream-pw-2e4a6c8e0b";
const BEARER = "eyJhbGciOiJIUzI1NiJ9.leaked-bearer-31cc";
const OTHER_SK = "sk-proj-echoedFEDCBA9876543210";
const SECRETS = [API_KEY, URL_KEY, UPSTREAM_PASSWORD, BEARER, OTHER_SK];

let fake: FakeOpenAIServer;
beforeAll(async () => {
  await ensureBuild();
  fake = await startFakeOpenAIServer();
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await fake?.close();
});

describe("a key in a model server URL", () => {
  it.each([
    ["OPENAI_BASE_URL", (url: string) => ({ OPENAI_BASE_URL: url })],
    ["AZURE_OPENAI_ENDPOINT", (url: string) => ({ AZURE_OPENAI_ENDPOINT: url, AZURE_OPENAI_API_KEY: API_KEY, AZURE_OPENAI_DEPLOYMENT: "d" })],
  ])("in %s stops npm start with exit code 2 and a message that does not repeat it", async (setting, envFor) => {
    const dir = mkdtempSync(join(tmpdir(), "skillboard-secrets-start-"));
    try {
      const url = fake.baseURL.replace("http://", `http://user:${URL_KEY}@`);
      const result = spawnSync(process.execPath, ["scripts/start.mjs"], {
        cwd: PROJECT_DIR,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PORT: String(await freePort()), DATABASE_URL: `file:${join(dir, "t.db")}`, ...envFor(url) },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`refusing to start: ${setting} has credentials in it`);
      expectNoSecret(result.stdout + result.stderr, SECRETS, "the server's output");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("secrets a model server echoes in its errors", () => {
  const app = withAppServer(() => ({ env: { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: API_KEY } }));

  it("reach neither the database, the run page, a download nor the server's log", async () => {
    fake.setOptions({
      faults: faultAlways(() => true, {
        kind: "status",
        status: 500,
        body: JSON.stringify({ error: { message: `upstream http://proxy:${UPSTREAM_PASSWORD}@10.0.0.9/v1 refused Bearer ${BEARER} (key ${API_KEY}, ${OTHER_SK})` } }),
      }),
    });
    // Queued for the server's worker, on the server's configured model server (which it sends its key to).
    const run = await createRunFor(app.db, {
      datasetId: 1,
      skillVersionId: 2,
      config: { model: { backend: "openai", model: "m", baseURL: fake.baseURL }, settings: RunSettingsSchema.parse({ limit: 6, maxRetries: 0 }) },
    });
    const deadline = Date.now() + 30_000;
    let status = "queued";
    while (!["completed", "failed"].includes(status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await app.db.run.findUniqueOrThrow({ where: { id: run.id } })).status;
    }
    expect(status).toBe("failed");
    expect(fake.stats().requests).toBeGreaterThanOrEqual(6);
    const rows = await app.db.runResult.findMany({ where: { runId: run.id } });
    expect(rows.every((row) => row.failReason.includes("[redacted]"))).toBe(true);

    const page = await (await fetch(`${app.server.baseURL}/runs/${run.id}`)).text();
    expect(page).toContain("[redacted]");
    expectNoSecret(page, SECRETS, "the run page");
    for (const format of ["csv", "jsonl", "seed"]) {
      const download = await fetch(`${app.server.baseURL}/api/runs/${run.id}/results?format=${format}`);
      expect(download.status).toBe(200);
      expectNoSecret(await download.text(), SECRETS, `the ${format} download`);
    }
    const live = await (await fetch(`${app.server.baseURL}/api/runs/${run.id}/live`)).text();
    expectNoSecret(live, SECRETS, "the live API");
    expectNoSecretInDatabase(app.server.databaseUrl, SECRETS);
    // The worker logged the run's end, with its error.
    expect(app.server.logs()).toContain(`run ${run.id}: failed`);
    expectNoSecret(app.server.logs(), SECRETS, "the server's log");
  }, 60_000);
});
