import { describe, expect, it } from "vitest";
import { detectFormat, parseDatasetText } from "@/lib/datasets";

describe("detectFormat", () => {
  it("goes by extension first, case-insensitively", () => {
    expect(detectFormat("qa.json", "id,question")).toBe("json");
    expect(detectFormat("qa.JSONL")).toBe("jsonl");
    expect(detectFormat("dump.ndjson")).toBe("jsonl");
    expect(detectFormat("sheet.Csv", "[")).toBe("csv");
  });

  it("falls back to the content", () => {
    expect(detectFormat("upload", '  [{"id": 1}]')).toBe("json");
    expect(detectFormat("upload", '{\n  "data": []\n}')).toBe("json");
    expect(detectFormat("upload", '{"data": [{"id": 1}]}')).toBe("json");
    expect(detectFormat("upload", '{"id": 1, "question": "Q"}\n{"id": 2}\n')).toBe("jsonl");
    expect(detectFormat("upload", '{"id": 1, "question": "Q"}')).toBe("jsonl");
    expect(detectFormat("upload", "\uFEFFid,question,answers\n")).toBe("csv");
    expect(detectFormat("upload.txt", "")).toBe("csv");
  });
});

describe("format choice when parsing", () => {
  const jsonl = '{"id": "a", "question": "Q", "answers": ["x"]}\n{"id": "b", "question": "Q", "answers": ["y"]}\n';

  it("parses extension-less JSON Lines, JSON and CSV by content", () => {
    expect(parseDatasetText(jsonl, { fileName: "upload" }).map((item) => item.id)).toEqual(["a", "b"]);
    expect(parseDatasetText(`[${jsonl.trim().split("\n").join(",")}]`, { fileName: "upload" })).toHaveLength(2);
    expect(parseDatasetText("id,question,answers\na,Q,x\n", { fileName: "upload" })).toHaveLength(1);
  });

  it("lets an explicit format override the extension", () => {
    expect(parseDatasetText(jsonl, { fileName: "data.json", format: "jsonl" })).toHaveLength(2);
  });
});
