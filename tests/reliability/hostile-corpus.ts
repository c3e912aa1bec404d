/**
 * The hostile-input corpus (tests/reliability/hostile-uploads.server.test.ts): malformed and oversized files, each with what
 * the upload must answer. Small ones are spelled out; large ones are generated while they are sent.
 */
import type { Db } from "@/lib/db";

export interface HostileCase {
  name: string;
  fileName: string;
  body: () => Uint8Array | AsyncIterable<Uint8Array>;
  status: number;
  /** What the error text must say (file, line, field). */
  error?: RegExp;
  /** For an upload that must succeed: what must have been stored. */
  check?: (db: Db, body: Record<string, unknown>) => Promise<void>;
}

const encoder = new TextEncoder();
const text = (value: string) => () => encoder.encode(value);
const line = (record: object) => `${JSON.stringify(record)}\n`;
const item = (id: string, extra: object = {}) => ({ id, question: `Question ${id}?`, answers: [`A ${id}`], ...extra });
const seedRow = (id: string, extra: object = {}) => ({
  id, question: `Question ${id}?`, em: 1, f1: 1, sub_em: 1, hard: 1, soft: 1, predicted_answer: "A", gold_answers: ["A"],
  response: "<answer>A</answer>", fail_reason: "", agent_ok: true, n_turns: 1, ...extra,
});

/** `head`, then `fill` repeated to `total` characters, then `tail`, in 64 KB chunks. */
function generated(head: string, fill: string, total: number, tail: string): () => AsyncIterable<Uint8Array> {
  return async function* () {
    yield encoder.encode(head);
    const chunk = encoder.encode(fill.repeat(Math.ceil(65536 / fill.length)));
    for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
    yield encoder.encode(tail);
  };
}

/** Bytes that are not UTF-8 anywhere: a deterministic stream of noise. */
function garbage(length: number): () => Uint8Array {
  return () => {
    const bytes = new Uint8Array(length);
    let state = 12345;
    for (let i = 0; i < length; i += 1) {
      state = (state * 1103515245 + 12345) >>> 0;
      bytes[i] = (state >>> 16) & 0xff;
    }
    bytes[0] = 0xff; // never valid in UTF-8
    return bytes;
  };
}

const latin1 = (value: string) => () => Uint8Array.from(Buffer.from(value, "latin1"));
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const million = Array.from({ length: 1_000_000 }, (_, i) => `c${i}`);

export const HOSTILE_DATASETS: HostileCase[] = [
  { name: "empty file", fileName: "empty.jsonl", body: text(""), status: 400, error: /empty/ },
  { name: "a byte order mark and nothing else", fileName: "bom.csv", body: text("\uFEFF"), status: 400, error: /bom\.csv: .*empty/ },
  {
    name: "a byte order mark before valid CSV is accepted", fileName: "bom-ok.csv", body: text("\uFEFFid,question,answers\nq1,Q?,A\n"), status: 201,
    check: async (db, body) => {
      const items = await db.datasetItem.findMany({ where: { datasetId: body.id as number } });
      if (items.length !== 1 || items[0]!.externalId !== "q1") throw new Error(`stored ${JSON.stringify(items)}`);
    },
  },
  { name: "binary garbage", fileName: "garbage.csv", body: garbage(200_000), status: 400, error: /garbage\.csv: is not valid UTF-8 text/ },
  { name: "Latin-1 text (not UTF-8)", fileName: "latin1.csv", body: latin1("id,question,answers\nq1,Où est Zürich?,Zürich\n"), status: 400, error: /not valid UTF-8/ },
  { name: "a wrong extension", fileName: "data.xlsx", body: text(line(item("q1"))), status: 400, error: /fileName: data\.xlsx is not a dataset file/ },
  { name: "truncated JSON", fileName: "cut.json", body: text(`[\n${JSON.stringify(item("q1"))},\n{"id": "q2", "question": "Q`), status: 400, error: /cut\.json: line 3: invalid JSON at column \d+: string is never closed/ },
  { name: "a JSON document that is not a list", fileName: "scalar.json", body: text('"just a string"'), status: 400, error: /expected a list of items/ },
  { name: "invalid JSON lines", fileName: "bad.jsonl", body: text(line(item("q1")) + "{not json\n"), status: 400, error: /bad\.jsonl: line 2: invalid JSON/ },
  { name: "CSV with an unbalanced quote", fileName: "quote.csv", body: text('id,question,answers\nq1,"Where is it?,A\nq2,Q,B\n'), status: 400, error: /quote\.csv: line 2: .*quoted field is never closed/ },
  { name: "duplicate ids", fileName: "dup.jsonl", body: text(line(item("q1")) + line(item("q2")) + line(item("q1"))), status: 400, error: /dup\.jsonl: field "id": duplicate ids: "q1" on lines 1, 3/ },
  { name: "an item with 65 metadata fields", fileName: "meta.json", body: text(JSON.stringify([item("q1", Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`m${i}`, i])))])), status: 400, error: /meta\.json: item 1 \(line 1\): field "m64": is metadata field 65 of 65/ },
  { name: "a CSV with 1,000,000 columns (9.9 MB)", fileName: "wide.csv", body: text(`id,question,answers,${million.join(",")}\nq1,Q,A,${million.map(() => "x").join(",")}\n`), status: 400, error: /wide\.csv: line 1: field "c64": the header has 1,000,003 columns/ },
  { name: "a 5 MB question", fileName: "field.jsonl", body: text(line(item("q1", { question: "q".repeat(5_000_000) }))), status: 400, error: /field\.jsonl: line 1: field "question": is 5,000,000 characters long; a field can be at most 1,000,000/ },
  { name: "a 40 MB single line", fileName: "line.jsonl", body: generated('{"id":"q1","answers":["a"],"question":"', "abcdefgh", 40_000_000, '"}\n'), status: 400, error: /line\.jsonl: line 1: field "question": is longer than 16,000,000 characters/ },
  { name: "metadata nested 3,000 levels deep (JSONL)", fileName: "deep.jsonl", body: text(`{"id":"q1","question":"Q","answers":["a"],"tree":${nested(3000)}}\n`), status: 400, error: /deep\.jsonl: line 1: field "tree": is nested more than 32 levels deep/ },
  { name: "a JSON document nested 3,000 levels deep", fileName: "deep.json", body: text(`[\n{"id":"q1","question":"Q","answers":["a"],"tree":${nested(3000)}}\n]`), status: 400, error: /deep\.json: line 2: invalid JSON at column \d+: nested more than 512 levels deep/ },
  {
    name: "control characters in a question are stored as they are", fileName: "control.jsonl", body: text(line(item("q1", { question: "\rWhy\u0000\u001b?" }))), status: 201,
    check: async (db, body) => {
      const [stored] = await db.datasetItem.findMany({ where: { datasetId: body.id as number } });
      if (stored?.question !== "\rWhy\u0000\u001b?") throw new Error(`stored ${JSON.stringify(stored?.question)}`);
    },
  },
];

export const HOSTILE_RESULTS: HostileCase[] = [
  { name: "empty file", fileName: "empty.jsonl", body: text(""), status: 400, error: /empty\.jsonl: the file has no result rows/ },
  { name: "binary garbage", fileName: "garbage.jsonl", body: garbage(200_000), status: 400, error: /garbage\.jsonl: the file is not UTF-8 text/ },
  { name: "truncated JSON", fileName: "cut.jsonl", body: text(`${JSON.stringify(seedRow("q1"))}\n{"id": "q2", "quest`), status: 400, error: /cut\.jsonl: line 2: not valid JSON/ },
  { name: "a row that is not an object", fileName: "list.jsonl", body: text("[1, 2]\n"), status: 400, error: /list\.jsonl: line 1: expected a JSON object/ },
  { name: "a 2 MB response", fileName: "field.jsonl", body: text(line(seedRow("q1", { response: "r".repeat(2_000_000) }))), status: 400, error: /field\.jsonl: line 1: field "response": must be at most 1,000,000 characters/ },
  { name: "a 40 MB single line", fileName: "line.jsonl", body: generated(`${JSON.stringify(seedRow("q1")).slice(0, -1)},"response2":"`, "abcdefgh", 40_000_000, '"}\n'), status: 400, error: /line\.jsonl: line 1: field "response2": is longer than 16,000,000 characters/ },
];

export const HOSTILE_SKILLS: HostileCase[] = [
  { name: "Latin-1 text (not UTF-8)", fileName: "latin1.md", body: latin1("# Compétences\nRéponds en français.\n"), status: 400, error: /latin1\.md is not valid UTF-8 text/ },
  { name: "binary garbage", fileName: "garbage.md", body: garbage(50_000), status: 400, error: /garbage\.md is not valid UTF-8 text/ },
];
