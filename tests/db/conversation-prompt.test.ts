// A result's user prompt that is its dataset item's context and question alone is not stored a second time: the
// conversation row keeps a flag and the prompt is rebuilt from the item when read. What a user sees (the item page,
// downloads, the optimiser's trajectories) must be exactly the prompt the model was sent, whichever way it was kept.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getItemConversation, getItemConversations, type Db } from "@/lib/db";
import { MAX_CONTEXT_CHARS } from "@/lib/prompts";
import { executeRun } from "@/lib/rollout";
import type { DatasetItem } from "@/lib/datasets";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, fastModel, makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;

beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 1 });
});
afterEach(async () => {
  await server.close();
  await t.close();
});

/** The user message the model server received for each item question (found after the prompt's question heading). */
function sentPrompts(): Map<string, string> {
  const prompts = server.requests.map((request) => request.messages.find((message) => message.role === "user")!.content);
  const byQuestion = new Map<string, string>();
  for (const prompt of prompts) byQuestion.set(/\n\n## Question\n(.*?)(?:\n\n## |$)/s.exec(prompt.slice(prompt.lastIndexOf("\n\n## Question\n")))![1]!, prompt);
  return byQuestion;
}

async function storedRows(db: Db, runId: number) {
  return db.runItemConversation.findMany({ where: { runId }, orderBy: { itemId: "asc" } });
}

// A context over the seed's budget (truncated in the prompt), one with characters outside the BMP, and a trace.
function mixedItems(): DatasetItem[] {
  const items = makeItems(6);
  items[1]!.context = Array.from({ length: 40 }, (_, i) => `[DOC] [TLE] Answer 1 [PAR] ${"long passage text ".repeat(12)} ${i}`).join(" ");
  items[2]!.context = "[DOC] [TLE] Answer 2 [PAR] Emoji 😀😀 and \"quotes\" and a line\n## Question\nnot the real one";
  items[3]!.diagnosticTraceContext = "step 1: looked at the passages";
  return items;
}

describe("a result's user prompt", () => {
  it("is not stored when it is the item's context and question alone, and reads back as the prompt sent", async () => {
    const items = mixedItems();
    expect(items[1]!.context.length).toBeGreaterThan(MAX_CONTEXT_CHARS);
    const run = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { concurrency: 3 } });
    expect((await executeRun(t.db, run.id, { model: fastModel(server.baseURL) })).status).toBe("completed");

    const rows = await storedRows(t.db, run.id);
    expect(rows).toHaveLength(6);
    // The item with a diagnostic trace has a prompt of its own: stored as sent.
    for (const row of rows) {
      const withTrace = row.itemId === items[3]!.id;
      expect(row.userPromptFromItem).toBe(!withTrace);
      expect(row.userPrompt === "").toBe(!withTrace);
    }

    const sent = sentPrompts();
    for (const item of items) {
      const conversation = await getItemConversation(t.db, run.id, item.id);
      expect(conversation!.userPrompt).toBe(sent.get(item.question));
    }
    expect(sent.get(items[1]!.question)).toContain("[PAR]");
    expect(sent.get(items[1]!.question)!.length).toBeLessThan(items[1]!.context.length);
    expect(sent.get(items[3]!.question)).toContain("## Previous Codex Trace Snapshot");

    // Downloads and the optimiser read a page of results at once.
    const page = await getItemConversations(t.db, run.id, items.map((item) => ({ itemId: item.id, trial: 1 })));
    expect(page.size).toBe(6);
    for (const item of items) expect(page.get(`1\u0000${item.id}`)!.userPrompt).toBe(sent.get(item.question));
  });

  it("is stored as sent when the run shows the training readout", async () => {
    const items = makeItems(3);
    const run = await createStoredRun(t.db, {
      items, baseURL: server.baseURL, settings: { diagnosticMode: true, diagnosticInstruction: "Explain each step." },
    });
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });

    const rows = await storedRows(t.db, run.id);
    expect(rows.map((row) => row.userPromptFromItem)).toEqual([false, false, false]);
    const sent = sentPrompts();
    for (const [index, item] of items.entries()) {
      expect(rows[index]!.userPrompt).toBe(sent.get(item.question));
      expect(rows[index]!.userPrompt).toContain("## Training Readout\nExplain each step.");
      expect((await getItemConversation(t.db, run.id, item.id))!.userPrompt).toBe(sent.get(item.question));
    }
  });

  it("stores none of a SearchQA-sized prompt (~2.5 KB) it can rebuild", async () => {
    const items = makeItems(20).map((item, i) => ({ ...item, context: `${item.context} ${"search snippet ".repeat(170)}${i}` }));
    const run = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { concurrency: 5 } });
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    const rows = await storedRows(t.db, run.id);
    expect(rows.reduce((sum, row) => sum + row.userPrompt.length, 0)).toBe(0);
    const sent = sentPrompts();
    expect([...sent.values()].every((prompt) => prompt.length > 2_500)).toBe(true);
    for (const item of items) expect((await getItemConversation(t.db, run.id, item.id))!.userPrompt).toBe(sent.get(item.question));
  });
});
