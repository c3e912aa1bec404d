// Every byte the CLI writes to stdout reaches the reader, however slowly it reads; a reader that goes away
// ends the command quietly. The CLI runs as a separate process, reading and writing real pipes.
import { once } from "node:events";
import { execFileSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportRunResults } from "@/lib/export/run-export";
import { buildSystemPrompt, buildUserPrompt } from "@/lib/prompts";
import { spawnCli } from "../support/cli";
import { makeItemResults, writeGeneratedRun } from "../support/item-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

const SKILL = "tests/fixtures/skills/searchqa-trained.md";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Finished {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs the CLI with `input` on stdin and its stdout on an operating-system pipe (a FIFO, what a shell's `|` or Python's
 * subprocess give; Node's own child pipes are sockets), read in 4 KiB pieces with a pause after each, as a slow reader does.
 */
async function runWithSlowReader(args: string[], input = ""): Promise<Finished> {
  const fifo = join(t.dir, `stdout-${Math.random().toString(36).slice(2)}`);
  execFileSync("mkfifo", [fifo]);
  // Opening a FIFO waits for the other end: the read side opens in the background while this thread opens the write side.
  const opening = open(fifo, "r");
  const writeEnd = openSync(fifo, "w");
  const reader = await opening;
  const child = spawnCli(args, { databaseUrl: t.url, stdio: ["pipe", writeEnd, "pipe"] });
  closeSync(writeEnd);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const closed = once(child, "close") as Promise<[number | null]>;
  child.stdin!.end(input);
  const pieces: Buffer[] = [];
  for await (const piece of reader.createReadStream({ highWaterMark: 4096 })) {
    pieces.push(piece as Buffer);
    await sleep(1);
  }
  const [code] = await closed;
  return { code, stdout: Buffer.concat(pieces), stderr };
}

describe("stdout into a slow reader", () => {
  it("score delivers every byte of several MB", async () => {
    const answer = (i: number) => `answer ${i} ${"x".repeat(300)}`;
    const count = 12_000;
    const input = Array.from({ length: count }, (_, i) => JSON.stringify({ response: `<answer>${answer(i)}</answer>`, answers: ["y"] })).join("\n");
    const expected = Array.from({ length: count }, (_, i) => `{"em": 0.0, "f1": 0.0, "sub_em": 0.0, "predicted_answer": "${answer(i)}"}\n`).join("");
    const result = await runWithSlowReader(["score"], `${input}\n`);
    expect(result.code).toBe(0);
    expect(Buffer.byteLength(expected)).toBeGreaterThan(3_000_000);
    expect(result.stdout.length).toBe(Buffer.byteLength(expected));
    expect(result.stdout.toString("utf8")).toBe(expected);
  });

  it("prompt delivers every byte of several MB", async () => {
    // An odd number of ~11 kB lines: the last one fits under Node's 16 kB high-water mark and stays in its buffer.
    const items = Array.from({ length: 1501 }, (_, i) => ({ id: `q${i}`, question: `Question ${i}?`, context: `[DOC] [TLE] T${i} [PAR] ${"word ".repeat(100)}`, answers: ["a"] }));
    const system = buildSystemPrompt(readFileSync(SKILL, "utf8"));
    const expected = items.map((item) => `${JSON.stringify({ id: item.id, system, user: buildUserPrompt({ question: item.question, context: item.context }) })}\n`).join("");
    const result = await runWithSlowReader(["prompt", "--skill", SKILL], items.map((item) => JSON.stringify(item)).join("\n"));
    expect(result.code).toBe(0);
    expect(Buffer.byteLength(expected)).toBeGreaterThan(3_000_000);
    expect(result.stdout.length).toBe(Buffer.byteLength(expected));
    expect(result.stdout.toString("utf8")).toBe(expected);
  });

  it("export delivers every byte of several MB", async () => {
    // Pages of 200 rows: the last page (5 rows, a few kB) is written when the pipe is full, and stays in Node's buffer.
    const { runId } = await writeGeneratedRun(t.db, makeItemResults(2405, { seed: 3 }));
    let expected = "";
    for await (const chunk of exportRunResults(t.db, runId, "jsonl")) expected += chunk;
    const result = await runWithSlowReader(["export", String(runId), "--format", "jsonl"]);
    expect(result.code).toBe(0);
    expect(Buffer.byteLength(expected)).toBeGreaterThan(3_000_000);
    expect(result.stdout.length).toBe(Buffer.byteLength(expected));
    expect(result.stdout.toString("utf8")).toBe(expected);
  }, 60_000);
});

describe("a reader that goes away", () => {
  it("ends the command quietly with a non-zero exit", async () => {
    const input = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ response: `<answer>${i} ${"z".repeat(200)}</answer>`, answers: ["y"] })).join("\n");
    const child = spawnCli(["score"], { databaseUrl: t.url });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const closed = once(child, "close") as Promise<[number | null, NodeJS.Signals | null]>;
    // The CLI may stop before it has read all of its input.
    child.stdin!.on("error", () => {});
    child.stdin!.end(`${input}\n`);
    // Like `| head -c 1000`: take the first bytes, then close the pipe.
    await once(child.stdout!, "readable");
    child.stdout!.destroy();
    const [code, signal] = await closed;
    expect(signal).toBeNull();
    expect(code).toBe(141);
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
  });
});
