import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatasetValidationError, parseDatasetFile, parseDatasetStream, parseDatasetText, type DatasetItem } from "@/lib/datasets";

async function* chunked(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(start, cut);
    start = cut;
  }
}

async function outcome(run: () => DatasetItem[] | Promise<DatasetItem[]>): Promise<DatasetItem[] | string> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DatasetValidationError) return `ERROR ${error.message}`;
    throw error;
  }
}

/** Streaming must agree with whole-text parsing wherever the chunk boundaries fall. */
async function expectSameAtEveryCut(text: string, fileName: string): Promise<void> {
  const expected = await outcome(() => parseDatasetText(text, { fileName }));
  const bytes = new TextEncoder().encode(text);
  for (let cut = 0; cut <= bytes.length; cut += 1) {
    const streamed = await outcome(() => parseDatasetStream(chunked(bytes, [cut]), { fileName }));
    expect(streamed, `cut at byte ${cut}`).toEqual(expected);
  }
  const oneByteChunks = bytes.map((_, index) => index).slice(1);
  expect(await outcome(() => parseDatasetStream(chunked(bytes, [...oneByteChunks]), { fileName }))).toEqual(expected);
}

describe("streaming equals text parsing", () => {
  const csv = '\uFEFFid,question,context,answers\r\n1,"Où est ""Zürich""?\r\nSuisse, bien sûr",,Zürich|Zurich\r\n2,Q,"[DOC] [TLE] T [PAR] 東京",["東京"]\r\n';
  const jsonl = '\uFEFF{"id": "1", "question": "Où?", "answers": ["Zürich"]}\r\n\r\n{"key": 2, "question": "東京?", "answer": "東京 🗼"}\n';
  const json = '[\n {"id": "1", "question": "Où?", "answers": ["Zürich"]},\n {"id": 2, "question": "🗼?", "answers": ["東京"]}\n]';

  it("for CSV, cutting inside multi-byte characters and quoted fields", async () => {
    await expectSameAtEveryCut(csv, "qa.csv");
    await expectSameAtEveryCut(csv, "upload");
  });

  it("for JSONL, with and without the extension", async () => {
    await expectSameAtEveryCut(jsonl, "data.jsonl");
    await expectSameAtEveryCut(jsonl, "upload");
  });

  it("for JSON", async () => {
    await expectSameAtEveryCut(json, "data.json");
    await expectSameAtEveryCut(json, "upload");
  });

  it("for invalid input, with the same issues and lines", async () => {
    await expectSameAtEveryCut('id,question,answers\n1,"multi\nline",\n2,"Zürich",a\n2,Q,\n', "qa.csv");
    await expectSameAtEveryCut('{"id": "1", "question": "Où?", "answers": []}\nnot json\n{"id": "1"}\n', "data.jsonl");
  });

  it("accepts string chunks and a web ReadableStream", async () => {
    const expected = parseDatasetText(csv, { fileName: "qa.csv" });
    const pieces = [csv.slice(0, 40), csv.slice(40, 41), csv.slice(41)];
    async function* strings(): AsyncGenerator<string> {
      yield* pieces;
    }
    expect(await parseDatasetStream(strings(), { fileName: "qa.csv" })).toEqual(expected);
    const bytes = new TextEncoder().encode(csv);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 37));
        controller.enqueue(bytes.subarray(37));
        controller.close();
      },
    });
    expect(await parseDatasetStream(stream, { fileName: "qa.csv" })).toEqual(expected);
  });

  it("rejects bytes that are not UTF-8", async () => {
    const latin1 = Uint8Array.from([...new TextEncoder().encode("id,question,answers\n1,Q,Z"), 0xfc, ...new TextEncoder().encode("rich\n")]);
    await expect(parseDatasetStream(chunked(latin1, [5]), { fileName: "qa.csv" })).rejects.toThrow(
      "qa.csv: is not valid UTF-8 text (save it as UTF-8)",
    );
  });
});

describe("parseDatasetFile", () => {
  let directory = "";
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "skillboard-datasets-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("names the file by its base name and honours a format override", async () => {
    const path = join(directory, "broken.txt");
    await writeFile(path, '{"id": "a", "question": "Q"}\n');
    await expect(parseDatasetFile(path, { format: "jsonl" })).rejects.toThrow(
      'broken.txt: line 1: field "answers": missing (expected an "answers" list or an "answer" string)',
    );
    await expect(parseDatasetFile(path, { fileName: "upload.jsonl" })).rejects.toThrow("upload.jsonl: line 1:");
  });

  it("streams a ~20 MB JSONL file", async () => {
    const path = join(directory, "large.jsonl");
    const passage = "[DOC] [TLE] Title [PAR] " + "lorem ipsum dolor sit amet, Zürich 東京 ".repeat(24);
    const count = 20_000;
    const lines = Array.from({ length: count }, (_, index) =>
      JSON.stringify({ id: `sq-${index}`, question: `Question ${index}?`, context: passage, answers: [`answer ${index}`] }),
    );
    await writeFile(path, lines.join("\n") + "\n");
    const items = await parseDatasetFile(path);
    expect(items).toHaveLength(count);
    expect(items[count - 1]?.id).toBe(`sq-${count - 1}`);
  });

  it("streams a multi-megabyte CSV whose quoted multi-line fields cross read chunks", async () => {
    const path = join(directory, "large.csv");
    const context = `"${'a passage, with ""quotes""\nand line breaks '.repeat(40)}"`;
    const count = 5_000;
    const rows = Array.from({ length: count }, (_, index) => `${index},Q ${index}?,${context},a${index}|b${index}`);
    await writeFile(path, ["id,question,context,answers", ...rows].join("\r\n") + "\r\n");
    const items = await parseDatasetFile(path);
    expect(items).toHaveLength(count);
    expect(items[4_321]).toMatchObject({ id: "4321", answers: ["a4321", "b4321"] });
    expect(items[4_321]?.context.startsWith('a passage, with "quotes"\nand line breaks')).toBe(true);
  });

  it("reports lines correctly deep into a chunked CSV", async () => {
    const path = join(directory, "deep.csv");
    const rows = Array.from({ length: 30_000 }, (_, index) => `${index},"Q\n${index}",a`); // each record spans 2 lines
    rows[25_000] = '25000,"Q\n25000",';
    await writeFile(path, ["id,question,answers", ...rows].join("\n"));
    await expect(parseDatasetFile(path)).rejects.toThrow(`deep.csv: line ${2 + 25_000 * 2}: field "answers": missing`);
  });
});
