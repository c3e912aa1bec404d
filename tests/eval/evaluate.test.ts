import { describe, expect, it } from "vitest";
import {
  emFailReason,
  evaluate,
  evaluationRecord,
  exactMatch,
  extractAnswer,
  normalizeAnswer,
  substringMatch,
  tokenF1,
} from "@/lib/eval";

describe("normalizeAnswer", () => {
  it.each([
    ["The Great Gatsby.", "great gatsby"],
    ["  an  Apple a day ", "apple day"],
    ["U.S.A.", "usa"],
    ["rock 'n' roll", "rock n roll"],
    ["théâtre the", "théâtre"],
    ["l'an", "lan"],
    ["ΟΔΟΣ", "οδος"],
    ["東京！", "東京！"],
    ["a\u00e9", "aé"],
    ["the1 the_ the-end", "the1 theend"],
    // Numbers like ² are word characters to Python's \b; combining marks are not, so "the\u0301" loses its "the".
    ["the1 the² thé the\u0301 a\u0301", "the1 the² thé \u0301 \u0301"],
  ])("%j → %j", (input, expected) => {
    expect(normalizeAnswer(input)).toBe(expected);
  });
});

describe("extractAnswer", () => {
  it("takes the last answer tag, trimmed", () => {
    expect(extractAnswer("I think <answer>London</answer>, no: <answer> Paris </answer>")).toBe("Paris");
  });

  it("takes an empty last tag over an earlier non-empty one", () => {
    expect(extractAnswer("<answer>Paris</answer> then <answer></answer>")).toBe("");
  });

  it("matches tags case-insensitively, including the long s", () => {
    expect(extractAnswer("<ANSWER>Paris</Answer>")).toBe("Paris");
    expect(extractAnswer("<anſwer>Paris</anſwer>")).toBe("Paris");
  });

  it("spans lines inside a tag", () => {
    expect(extractAnswer("<answer>\nThe Beatles\nband\n</answer>")).toBe("The Beatles\nband");
  });

  it("falls back to the last non-blank line when no tag is closed", () => {
    expect(extractAnswer("Let me think.\nThe answer is <answer>Paris\n\n  \n")).toBe("The answer is <answer>Paris");
    expect(extractAnswer("first\r\nsecond\u2028third \u3000")).toBe("third");
    expect(extractAnswer("   ")).toBe("");
  });
});

describe("scores on typical answers", () => {
  it("a tagged exact answer scores 1 everywhere", () => {
    expect(evaluate("Reasoning... <answer>The Beatles</answer>", ["Beatles"])).toEqual({
      em: 1,
      f1: 1,
      subEm: 1,
      predictedAnswer: "The Beatles",
    });
  });

  it("a longer answer gets partial F1 and a substring match", () => {
    const result = evaluate("<answer>President Abraham Lincoln</answer>", ["Abraham Lincoln"]);
    expect(result).toEqual({ em: 0, f1: 0.8, subEm: 1, predictedAnswer: "President Abraham Lincoln" });
  });

  it("takes the best gold for each metric", () => {
    expect(exactMatch("paris", ["London", "Paris, France", "PARIS"])).toBe(1);
    expect(tokenF1("Paris France", ["Paris", "Paris, France"])).toBe(1);
    expect(substringMatch("France", ["London", "Paris, France"])).toBe(1);
  });

  it("counts repeated tokens as a multiset", () => {
    expect(tokenF1("cat cat dog", ["cat dog dog"])).toBe(2 / 3);
  });

  it("scores 0 against no gold answers", () => {
    expect(evaluate("<answer>x</answer>", [])).toEqual({ em: 0, f1: 0, subEm: 0, predictedAnswer: "x" });
  });
});

describe("empty predictions", () => {
  it("score F1 0 against a real gold but still count as a substring (Python's '' in s)", () => {
    expect(evaluate("<answer></answer>", ["Paris"])).toEqual({ em: 0, f1: 0, subEm: 1, predictedAnswer: "" });
  });

  it("score 1 against a gold that normalises to nothing", () => {
    expect(evaluate("<answer>The</answer>", ["a", "Paris"])).toMatchObject({ em: 1, f1: 1, subEm: 1 });
  });

  it("a punctuation-only gold is skipped by F1 but matches as a substring", () => {
    expect(evaluate("<answer>Paris</answer>", ["!!!"])).toMatchObject({ em: 0, f1: 0, subEm: 1 });
  });
});

describe("seed messages", () => {
  it("fail reason quotes the answer plainly and the golds as a Python list", () => {
    expect(emFailReason("Lon'don", ["Paris", "it's"])).toBe(`EM=0: predicted 'Lon'don' but expected ['Paris', "it's"]`);
  });

  it("evaluation record", () => {
    const golds = ["Paris"];
    const record = evaluationRecord("Capital of France?", golds, evaluate("<answer>London</answer>", golds));
    expect(record).toBe(
      "[EVALUATION RESULT]\n" +
        "Question: Capital of France?\n" +
        "Predicted answer: 'London'\n" +
        "Gold answers: ['Paris']\n" +
        "Exact Match: 0.0\n" +
        "F1: 0.0000",
    );
  });

  it("evaluation record prints F1 = 1/32 as Python does (0.0312, not toFixed's 0.0313)", () => {
    const record = evaluationRecord("Q", ["g"], { em: 0, f1: 1 / 32, subEm: 0, predictedAnswer: "it's\n" });
    expect(record).toBe(
      "[EVALUATION RESULT]\nQuestion: Q\nPredicted answer: \"it's\\n\"\nGold answers: ['g']\nExact Match: 0.0\nF1: 0.0312",
    );
  });
});
