// Results files built to ruin the server: a 60 MB single line, a field over the limit, tens of thousands of rows
// (stored in short transactions, the event loop shared throughout). Each is refused with its line and field, or
// imported without stalling anything else, and a refused file stores nothing.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatasetValidationError, MAX_FIELD_CHARS, MAX_RECORD_CHARS } from "@/lib/datasets";
import { getRun } from "@/lib/db";
import { importResults } from "@/lib/import";
import { rejectionOf } from "../support/failures";
import { createTestDb, type TestDatabase } from "../support/test-db";
import { measureLongestStall } from "../support/event-loop";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

function seedRow(index: number, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: `q${index}`, question: `Question ${index}?`, em: 1, f1: 1, sub_em: 1, hard: 1, soft: 1, predicted_answer: `A${index}`,
    gold_answers: [`A${index}`], response: `<answer>A${index}</answer>`, fail_reason: "", agent_ok: true, n_turns: 1, ...overrides,
  });
}

async function counts() {
  return { runs: await t.db.run.count(), datasets: await t.db.dataset.count(), results: await t.db.runResult.count() };
}

async function* generated(head: string, fill: string, total: number, tail: string): AsyncGenerator<string> {
  yield head;
  const chunk = fill.repeat(Math.ceil(65536 / fill.length));
  for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
  yield tail;
}

describe("results files and the limits", () => {
  it("refuses a 60 MB single-line file in linear time, naming the line and the field", async () => {
    const started = performance.now();
    const head = `${seedRow(0)}\n${seedRow(1).slice(0, -1)},"response2":"`;
    const error = (await rejectionOf(importResults(t.db, generated(head, "abcdefgh", 60_000_000, '"}\n'), { file: "huge.jsonl" }))) as DatasetValidationError;
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(error).toBeInstanceOf(DatasetValidationError);
    expect(error.issues).toEqual([
      { line: 2, field: "response2", message: `is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters; a field can be at most 1,000,000` },
    ]);
    expect(await counts()).toEqual({ runs: 0, datasets: 0, results: 0 });
  });

  it("refuses a question, an answer or a response over the field limit, by line and field", async () => {
    const big = "x".repeat(MAX_FIELD_CHARS + 1);
    const text = [seedRow(0, { question: big }), seedRow(1, { gold_answers: ["ok", big] }), seedRow(2, { response: big })].join("\n");
    const error = (await rejectionOf(importResults(t.db, [text], { file: "big.jsonl" }))) as DatasetValidationError;
    expect(error.issues.map(({ line, field }) => ({ line, field }))).toEqual([
      { line: 1, field: "question" },
      { line: 2, field: "gold_answers.1" },
      { line: 3, field: "response" },
    ]);
    expect(error.issues[0]!.message).toMatch(/at most 1,000,000 characters/);
    expect(await counts()).toEqual({ runs: 0, datasets: 0, results: 0 });
  });

  it("imports 20,000 rows without holding the event loop for long", async () => {
    const text = Array.from({ length: 20_000 }, (_, index) => seedRow(index)).join("\n");
    // The file arrives in 64 KB chunks, as an upload does.
    const chunks = Array.from({ length: Math.ceil(text.length / 65536) }, (_, index) => text.slice(index * 65536, (index + 1) * 65536));
    const { result: outcome, longestStallMs } = await measureLongestStall(() => importResults(t.db, chunks, { file: "many.jsonl" }));
    expect(longestStallMs).toBeLessThan(250);
    expect(await getRun(t.db, outcome.runId)).toMatchObject({ status: "completed", nDone: 20_000, itemsTotal: 20_000 });
    expect(await counts()).toEqual({ runs: 1, datasets: 1, results: 20_000 });
  });
});
