import { describe, expect, it } from "vitest";
import { highlightAnswer, splitAnswerTags } from "@/lib/eval/answer-highlight";
import { tokenF1 } from "@/lib/eval";

const marked = (segments: { text: string; match: boolean }[]) => segments.filter((s) => s.match).map((s) => s.text);
const joined = (segments: { text: string }[]) => segments.map((s) => s.text).join("");

describe("highlightAnswer", () => {
  it("picks the gold answer with the highest token F1, the first on ties", () => {
    expect(highlightAnswer("Abraham Lincoln", ["George Washington", "President Abraham Lincoln", "Lincoln"]).closestGold).toBe(1);
    expect(highlightAnswer("Lincoln", ["Lincoln", "lincoln"]).closestGold).toBe(0);
    expect(highlightAnswer("nothing shared", ["Paris", "London"])).toMatchObject({ closestGold: 0, f1: 0 });
    expect(highlightAnswer("x", [])).toEqual({ closestGold: null, f1: 0, predicted: [{ text: "x", match: false }], gold: [] });
  });

  it("marks the words whose normalised tokens the other side shares, keeping the text as written", () => {
    const result = highlightAnswer("The Abraham  Lincoln (president)", ["Abraham Lincoln"]);
    expect(result.f1).toBe(tokenF1("The Abraham  Lincoln (president)", ["Abraham Lincoln"]));
    expect(joined(result.predicted)).toBe("The Abraham  Lincoln (president)");
    // "The" is an article and "(president)" is not in the gold; the matched phrase is one highlight.
    expect(result.predicted).toEqual([
      { text: "The ", match: false },
      { text: "Abraham  Lincoln", match: true },
      { text: " (president)", match: false },
    ]);
    expect(result.gold).toEqual([{ text: "Abraham Lincoln", match: true }]);
  });

  it("matches punctuation and case as the scorer does", () => {
    const result = highlightAnswer("U.S.A., probably", ["usa"]);
    expect(marked(result.predicted)).toEqual(["U.S.A.,"]);
    expect(marked(result.gold)).toEqual(["usa"]);
  });

  it("counts repeated tokens as a multiset, like F1", () => {
    const result = highlightAnswer("new new york", ["New York"]);
    expect(result.predicted).toEqual([
      { text: "new", match: true },
      { text: " new ", match: false },
      { text: "york", match: true },
    ]);
  });

  it("leaves an empty prediction unmarked", () => {
    expect(highlightAnswer("", ["Paris"]).predicted).toEqual([]);
  });
});

describe("splitAnswerTags", () => {
  it("cuts the response around its answer tags and marks the one the scorer took", () => {
    const segments = splitAnswerTags("Think <answer>draft</answer> more.\n<ANSWER>Final one</ANSWER>!");
    expect(segments).toEqual([
      { text: "Think ", kind: "text" },
      { text: "<answer>", kind: "tag" },
      { text: "draft", kind: "answer" },
      { text: "</answer>", kind: "tag" },
      { text: " more.\n", kind: "text" },
      { text: "<ANSWER>", kind: "tag" },
      { text: "Final one", kind: "final" },
      { text: "</ANSWER>", kind: "tag" },
      { text: "!", kind: "text" },
    ]);
  });

  it("keeps a response without tags (or with hostile markup) as plain text", () => {
    expect(splitAnswerTags("just text")).toEqual([{ text: "just text", kind: "text" }]);
    const hostile = '<script>window.__xss=1</script><answer><img src=x onerror="window.__xss=2"></answer>';
    expect(joined(splitAnswerTags(hostile))).toBe(hostile);
    expect(splitAnswerTags(hostile).find((s) => s.kind === "final")?.text).toBe('<img src=x onerror="window.__xss=2">');
  });

  it("spans lines inside a tag, as the scorer's DOTALL pattern does", () => {
    expect(splitAnswerTags("<answer>a\nb</answer>").map((s) => s.kind)).toEqual(["tag", "final", "tag"]);
    expect(splitAnswerTags("<answer></answer>")).toEqual([{ text: "<answer>", kind: "tag" }, { text: "</answer>", kind: "tag" }]);
  });
});
