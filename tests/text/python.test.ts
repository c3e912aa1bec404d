import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  PY_WHITESPACE,
  codePointLength,
  codePointSlice,
  pyFloatRepr,
  pyFormatFixed,
  pyRepr,
  pySplit,
  pySplitlines,
  pyStrip,
} from "@/lib/text/python";

describe("Python whitespace", () => {
  it("is str.isspace()'s set, not JS \\s", () => {
    for (const ch of ["\x1c", "\x1f", "\x85", "\u3000", "\u2028", "\xa0"]) expect(PY_WHITESPACE).toContain(ch);
    expect(PY_WHITESPACE).not.toContain("\ufeff");
    expect(PY_WHITESPACE).not.toContain("\u200b");
    expect(PY_WHITESPACE).not.toContain("-");
    expect(new RegExp(`^[${PY_WHITESPACE}]+$`).test(PY_WHITESPACE)).toBe(true);
  });

  it("pyStrip keeps a BOM and removes \\x1c / \\x85, unlike trim()", () => {
    expect(pyStrip("\ufeffx\ufeff")).toBe("\ufeffx\ufeff");
    expect(pyStrip("\x1c\x85 x \u3000")).toBe("x");
    expect(pyStrip(" \t\n")).toBe("");
  });

  it("pySplit splits on whitespace runs without empty tokens", () => {
    expect(pySplit("  a\u3000b\x1cc\ufeffd  ")).toEqual(["a", "b", "c\ufeffd"]);
    expect(pySplit("")).toEqual([]);
    expect(pySplit(" \x85 ")).toEqual([]);
  });

  it("pySplitlines follows str.splitlines()", () => {
    expect(pySplitlines("a\r\nb\rc\n")).toEqual(["a", "b", "c"]);
    expect(pySplitlines("")).toEqual([]);
    expect(pySplitlines("\n")).toEqual([""]);
    expect(pySplitlines("a\n\nb")).toEqual(["a", "", "b"]);
    expect(pySplitlines("a\u2028b\x85c\x1cd\ve")).toEqual(["a", "b", "c", "d", "e"]);
    // \x1f is whitespace to Python but not a line boundary.
    expect(pySplitlines("a\x1fb")).toEqual(["a\x1fb"]);
  });
});

describe("code point length and slicing", () => {
  it("counts an emoji once", () => {
    expect(codePointLength("a😀b")).toBe(3);
    expect(codePointLength("👍🏽")).toBe(2);
    expect(codePointLength("")).toBe(0);
  });

  it("slices like s[start:end] without splitting surrogate pairs", () => {
    expect(codePointSlice("a😀b", 0, 2)).toBe("a😀");
    expect(codePointSlice("a😀b", 1)).toBe("😀b");
    expect(codePointSlice("a😀b", -2)).toBe("😀b");
    expect(codePointSlice("a😀b", 0, -1)).toBe("a😀");
    expect(codePointSlice("a😀b", 2, 1)).toBe("");
    expect(codePointSlice("a😀b", -10, 10)).toBe("a😀b");
  });
});

describe("pyRepr", () => {
  it("picks quotes like Python", () => {
    expect(pyRepr("Paris")).toBe("'Paris'");
    expect(pyRepr("it's")).toBe(`"it's"`);
    expect(pyRepr('say "hi"')).toBe(`'say "hi"'`);
    expect(pyRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
  });

  it("escapes backslashes and control characters, keeps printable non-ASCII", () => {
    expect(pyRepr("a\\b\nc\td\re")).toBe("'a\\\\b\\nc\\td\\re'");
    expect(pyRepr("\x00\x7f")).toBe("'\\x00\\x7f'");
    expect(pyRepr("café 東京 😀")).toBe("'café 東京 😀'");
    expect(pyRepr("\xa0\x85\u200b\u2028\ufeff")).toBe("'\\xa0\\x85\\u200b\\u2028\\ufeff'");
    expect(pyRepr("\u{e0001}")).toBe("'\\U000e0001'");
  });

  it("prints lists, floats, booleans and None", () => {
    expect(pyRepr(["Paris", "it's"])).toBe(`['Paris', "it's"]`);
    expect(pyRepr([])).toBe("[]");
    expect(pyRepr(1)).toBe("1.0");
    expect(pyRepr(true)).toBe("True");
    expect(pyRepr(null)).toBe("None");
  });
});

describe("pyFloatRepr", () => {
  it.each([
    [1, "1.0"],
    [0, "0.0"],
    [-0, "-0.0"],
    [0.1 + 0.2, "0.30000000000000004"],
    [2 / 3, "0.6666666666666666"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [1.5e-7, "1.5e-07"],
    [1e15, "1000000000000000.0"],
    [1e16, "1e+16"],
    [1.5e16, "1.5e+16"],
    [1e100, "1e+100"],
    [5e-324, "5e-324"],
    [NaN, "nan"],
    [Infinity, "inf"],
    [-Infinity, "-inf"],
  ])("repr(%s) is %s", (value, expected) => {
    expect(pyFloatRepr(value)).toBe(expected);
  });
});

describe("pyFormatFixed", () => {
  it("gives CPython's digits for every F1 of up to 80 tokens a side, exact ties, tiny, large and negative values", () => {
    // Token F1 = 2pr / (p + r) with p = k/a, r = k/b: all of them, plus the values near and on the toFixed fast path's
    // edges (ties k/2^m, 1e9, 1e-7, -0), at the digits the seed and the reports use.
    const values = new Set<number>([0, -0, 1, 1e9, 1e9 - 0.5, 1e9 + 0.5, 123456789.12345, 1e-7, -1e-7, 5e-5, -5e-5, 1e21, 2 ** 60]);
    for (let a = 1; a <= 80; a++) {
      for (let b = 1; b <= 80; b++) {
        for (let k = 1; k <= Math.min(a, b); k++) values.add((2 * (k / a) * (k / b)) / (k / a + k / b));
      }
    }
    for (let m = 1; m <= 30; m++) for (let k = 1; k < 64; k += 2) values.add(k / 2 ** m).add(-k / 2 ** m).add(k / 2 ** m + 3);
    const cases = [...values].flatMap((value) => [0, 1, 2, 4, 6].map((digits) => ({ value, digits })));
    // repr() of a double round-trips exactly, and JSON numbers are read as doubles on both sides.
    const script = "import json,sys\nfor v,d in json.load(sys.stdin): print(format(v, f'.{d}f'))";
    const input = JSON.stringify(cases.map(({ value, digits }) => [Object.is(value, -0) ? "-0.0" : value, digits]))
      .replace(/"-0\.0"/g, "-0.0");
    const python = spawnSync("python3", ["-c", script], { input, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" });
    expect(python.status, python.stderr).toBe(0);
    const expected = python.stdout.trimEnd().split("\n");
    expect(expected).toHaveLength(cases.length);
    const wrong = cases.flatMap(({ value, digits }, index) => {
      const ours = pyFormatFixed(value, digits);
      return ours === expected[index] ? [] : [`${value} .${digits}f: ours ${ours}, python ${expected[index]}`];
    });
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(cases.length).toBeGreaterThan(50_000);
  });

  it("rounds exact binary ties half-to-even where toFixed rounds up", () => {
    expect((0.03125).toFixed(4)).toBe("0.0313");
    expect(pyFormatFixed(0.03125, 4)).toBe("0.0312");
    expect(pyFormatFixed(0.09375, 4)).toBe("0.0938");
    expect(pyFormatFixed(0.125, 2)).toBe("0.12");
    expect(pyFormatFixed(2.5, 0)).toBe("2");
    expect(pyFormatFixed(3.5, 0)).toBe("4");
  });

  it("agrees with toFixed on values that are not ties", () => {
    expect(pyFormatFixed(2 / 3, 4)).toBe("0.6667");
    expect(pyFormatFixed(1, 4)).toBe("1.0000");
    expect(pyFormatFixed(0, 4)).toBe("0.0000");
    expect(pyFormatFixed(0.8, 4)).toBe("0.8000");
  });

  it("handles signs, large values and non-finite values like Python", () => {
    expect(pyFormatFixed(-0.00001, 4)).toBe("-0.0000");
    expect(pyFormatFixed(-0, 1)).toBe("-0.0");
    expect(pyFormatFixed(1e21, 2)).toBe("1000000000000000000000.00");
    expect(pyFormatFixed(NaN, 4)).toBe("nan");
    expect(pyFormatFixed(-Infinity, 4)).toBe("-inf");
  });
});
