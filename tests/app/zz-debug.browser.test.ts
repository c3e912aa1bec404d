import { describe, it, beforeAll, afterAll } from "vitest";
import { addSkillVersion, importDataset } from "@/lib/db";
import { useBrowserApp } from "../support/browser-app";
import { screenshot } from "../support/browser";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { optimizerAnswer } from "../support/fake-optimizer";
import { optimizationDataset } from "../support/fake-optimizer-target";

describe("debug", () => {
  let fake: FakeOpenAIServer | undefined;
  beforeAll(async () => { fake = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req) }); });
  afterAll(() => fake?.close());
  const app = useBrowserApp(() => ({ env: { OPENAI_BASE_URL: fake!.baseURL, SKILLBOARD_MODEL: "fake", OPENAI_API_KEY: "sk-x" } }));
  beforeAll(async () => {
    await importDataset(app.db, { name: "topic-world", fileName: "t.jsonl", format: "jsonl", hash: "x", items: optimizationDataset({ size: 54, topics: 12, seed: 3 }) });
    await addSkillVersion(app.db, { name: "topic-skill", content: "# s\n", note: "initial" });
  });
  it("debug", async () => {
    const { page, errors } = app.browser;
    page.on("console", (m) => console.log("CONSOLE", m.type(), m.text()));
    await page.goto(`${app.baseURL}/optimize/new`);
    await page.getByLabel("Skill version", { exact: true }).selectOption({ label: "topic-skill v1 — initial" });
    await page.getByLabel("Dataset to split", { exact: true }).selectOption({ label: "topic-world (54 items)" });
    await page.getByLabel("Batch size", { exact: true }).fill("0");
    await page.getByRole("button", { name: "Start optimisation", exact: true }).click();
    await new Promise((r) => setTimeout(r, 4000));
    console.log("ERRORS", errors);
    console.log("ALERTS", await page.getByRole("alert").allInnerTexts());
    await screenshot(page, "debug-form");
    console.log("SERVER", app.server.logs());
  }, 120000);
});
