import { describe, expect, it } from "vitest";
import {
  MAX_CONTEXT_CHARS,
  buildRefinementPrompt,
  buildSystemPrompt,
  buildUserPrompt,
  formatTemplate,
  loadPromptTemplate,
  truncateContext,
} from "@/lib/prompts";

const TEMPLATE_TAIL =
  "## Task Format\n" +
  "You will receive a CONTEXT containing document passages and a QUESTION.\n" +
  "Read the context carefully and answer the question based on the information provided.\n" +
  "\n" +
  "## Answer Format\n" +
  "Think step by step, then provide your final answer inside <answer>...</answer> tags.\n" +
  "Keep your answer concise — typically a few words or a short phrase.\n" +
  "Do not repeat the question. Do not include unnecessary explanation in the answer tags.\n" +
  "\n" +
  "Example:\n" +
  "<answer>Abraham Lincoln</answer>\n";

describe("buildSystemPrompt", () => {
  it("puts the stripped skill in a Skill section", () => {
    expect(buildSystemPrompt("\n  Prefer short answers.\n- Drop titles.  \n")).toBe(
      "You are an expert question answering agent.\n\n" +
        "## Skill\nPrefer short answers.\n- Drop titles.\n\n" +
        TEMPLATE_TAIL,
    );
  });

  it("leaves the Skill section out for a blank skill", () => {
    const expected = "You are an expert question answering agent.\n\n" + TEMPLATE_TAIL;
    expect(buildSystemPrompt("")).toBe(expected);
    expect(buildSystemPrompt(" \n\t\u3000\x1c")).toBe(expected);
  });

  it("keeps a BOM-only skill, since Python's strip() does not remove U+FEFF", () => {
    expect(buildSystemPrompt("\ufeff")).toContain("## Skill\n\ufeff\n\n## Task Format");
  });

  it("inserts $&, $1, $$ and braces literally", () => {
    const skill = "Use $& and $1 and $$ and $` and {} and {skill_section} and {{x}}";
    expect(buildSystemPrompt(skill)).toContain(`## Skill\n${skill}\n\n## Task Format`);
  });
});

describe("formatTemplate", () => {
  it("handles brace escapes and rejects what Python's format would reject", () => {
    expect(formatTemplate("{{a}} {a} }}", { a: "$&" })).toBe("{a} $& }");
    expect(() => formatTemplate("{b}", { a: "x" })).toThrow();
    expect(() => formatTemplate("a } b", {})).toThrow();
    expect(() => formatTemplate("{a!r}", { a: "x" })).toThrow();
  });
});

describe("loadPromptTemplate", () => {
  it("reads prompts/<name>.md verbatim, with its trailing newline", () => {
    const template = loadPromptTemplate("rollout_system");
    expect(template.startsWith("You are an expert question answering agent.\n\n{skill_section}## Task Format\n")).toBe(
      true,
    );
    expect(template.endsWith("</answer>\n")).toBe(true);
    expect(loadPromptTemplate("rollout_system")).toBe(template);
  });

  it("refuses names that would leave the prompts folder", () => {
    expect(() => loadPromptTemplate("../package")).toThrow();
  });
});

describe("buildUserPrompt", () => {
  it("writes context then question", () => {
    expect(buildUserPrompt({ question: "Who wrote Hamlet?", context: "[DOC] Hamlet is by Shakespeare." })).toBe(
      "## Context\n[DOC] Hamlet is by Shakespeare.\n\n## Question\nWho wrote Hamlet?",
    );
  });

  it("adds the trace snapshot whatever the mode, and the readout only in diagnostic mode", () => {
    const base = { question: "Q?", context: "ctx", diagnosticInstruction: "  Check dates.\n" };
    const trace = "\n step 1 \n";
    const traceSection =
      "## Previous Codex Trace Snapshot\n" +
      "This is a partial transcript from an earlier attempt. Use it as your current reasoning context.\n\n" +
      "step 1";
    expect(buildUserPrompt(base)).toBe("## Context\nctx\n\n## Question\nQ?");
    expect(buildUserPrompt({ ...base, diagnosticTraceContext: trace })).toBe(
      `## Context\nctx\n\n## Question\nQ?\n\n${traceSection}`,
    );
    expect(buildUserPrompt({ ...base, diagnosticMode: true, diagnosticTraceContext: trace })).toBe(
      `## Context\nctx\n\n## Question\nQ?\n\n${traceSection}\n\n## Training Readout\nCheck dates.`,
    );
  });

  it("ignores whitespace-only diagnostic values", () => {
    const prompt = buildUserPrompt({
      question: "Q?",
      context: "ctx",
      diagnosticMode: true,
      diagnosticInstruction: " \n\x85",
      diagnosticTraceContext: "\u3000\t",
    });
    expect(prompt).toBe("## Context\nctx\n\n## Question\nQ?");
  });

  it("truncates the context but keeps the question as given", () => {
    const prompt = buildUserPrompt({ question: " Q? ", context: "x".repeat(MAX_CONTEXT_CHARS + 1) });
    expect(prompt).toBe(`## Context\n${"x".repeat(MAX_CONTEXT_CHARS)}\n...[truncated]\n\n## Question\n Q? `);
  });
});

describe("truncateContext", () => {
  it("returns contexts within budget unchanged, measured in code points", () => {
    const emoji = "😀".repeat(MAX_CONTEXT_CHARS);
    expect(emoji.length).toBe(2 * MAX_CONTEXT_CHARS);
    expect(truncateContext(emoji)).toBe(emoji);
  });

  it("keeps whole passages that fit", () => {
    expect(truncateContext("aaaa[DOC]bbbb[DOC]cccc", 14)).toBe("aaaa[DOC]bbbb");
  });

  it("cuts raw text with a marker when the first passage is too long, never inside an emoji", () => {
    expect(truncateContext("😀😀😀[DOC]x", 2)).toBe("😀😀\n...[truncated]");
  });

  it("drops a leading [DOC] separator, as the seed does", () => {
    expect(truncateContext("[DOC]aaaa[DOC]bbbb[DOC]cccc", 14)).toBe("aaaa[DOC]bbbb");
  });
});

describe("buildRefinementPrompt", () => {
  it("quotes the previous response verbatim", () => {
    expect(buildRefinementPrompt("<answer>Paris</answer>")).toBe(
      "Your previous answer was:\n<answer>Paris</answer>\n\n" +
        "Review it against the context and question. If correct, repeat it. If wrong, provide a corrected answer.\n" +
        "Use <answer>...</answer> tags for your final answer.",
    );
  });
});
