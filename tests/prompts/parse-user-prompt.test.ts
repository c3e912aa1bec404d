import { describe, expect, it } from "vitest";
import { buildUserPrompt, truncateContext } from "@/lib/prompts";
import { goldsInPassage, parseUserPrompt } from "@/lib/prompts/parse-user-prompt";

const CONTEXT = "[DOC] [TLE] Abraham Lincoln - Wikipedia [PAR] Lincoln was the 16th president. [DOC] [TLE] Springfield [PAR] A city in Illinois.";

describe("parseUserPrompt", () => {
  it("reads back the context, its passages and the question of a built prompt", () => {
    const prompt = buildUserPrompt({ question: "Who was the 16th president?", context: CONTEXT });
    expect(parseUserPrompt(prompt, "Who was the 16th president?")).toEqual({
      context: CONTEXT,
      passages: [
        { title: "Abraham Lincoln - Wikipedia", text: "Lincoln was the 16th president." },
        { title: "Springfield", text: "A city in Illinois." },
      ],
      question: "Who was the 16th president?",
      extra: [],
    });
  });

  it("finds the real question even when the context contains a question heading", () => {
    const context = "Notes\n\n## Question\nA fake question\n\nmore notes";
    const prompt = buildUserPrompt({ question: "Real?", context });
    const parsed = parseUserPrompt(prompt, "Real?");
    expect(parsed?.context).toBe(context);
    expect(parsed?.passages).toEqual([]);
  });

  it("reads the diagnostic sections that follow the question", () => {
    const prompt = buildUserPrompt({
      question: "Q?", context: "", diagnosticTraceContext: "trace text", diagnosticMode: true, diagnosticInstruction: "readout",
    });
    expect(parseUserPrompt(prompt, "Q?")).toMatchObject({
      context: "",
      extra: [
        { heading: "Previous Codex Trace Snapshot", body: expect.stringContaining("trace text") as unknown as string },
        { heading: "Training Readout", body: "readout" },
      ],
    });
  });

  it("parses a truncated context, whose first passage lost its [DOC]", () => {
    const long = `[DOC] [TLE] First [PAR] ${"x".repeat(3000)} [DOC] [TLE] Second [PAR] ${"y".repeat(4000)}`;
    const prompt = buildUserPrompt({ question: "Q?", context: long });
    expect(parseUserPrompt(prompt, "Q?")?.passages.map((p) => p.title)).toEqual(["First"]);
    expect(parseUserPrompt(prompt, "Q?")?.context).toBe(truncateContext(long));
  });

  it("returns null for a prompt of another layout", () => {
    expect(parseUserPrompt("Just a question", "Just a question")).toBeNull();
    expect(parseUserPrompt("## Context\nctx\n\n## Question\nOther?", "Q?")).toBeNull();
  });
});

describe("goldsInPassage", () => {
  const passage = { title: "Abraham Lincoln", text: "The 16th president, born 1809 in Kentucky; he started the party." };
  it("finds golds after normalisation, on whole tokens only", () => {
    expect(goldsInPassage(passage, ["abraham LINCOLN", "Kentucky.", "art", "1", "the 16th President"])).toEqual([
      "abraham LINCOLN",
      "Kentucky.",
      "the 16th President",
    ]);
    expect(goldsInPassage(passage, ["", "the"])).toEqual([]);
  });
});
