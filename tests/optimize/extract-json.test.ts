/**
 * Reading JSON out of replies against upstream's extract_json without json_repair (record_core.py "json"): a
 * corpus of fenced blocks, prose around JSON, trailing commas, braces in strings, several objects, Python-only
 * constants, int/float distinctions, Unicode whitespace around fences, and broken JSON. Each result is compared
 * as Python's json.dumps(result, ensure_ascii=False) text, so 1 vs 1.0 and key order count.
 */
import { describe, expect, it } from "vitest";
import { PyFloat, pyJsonDumps } from "@/lib/export/python-json";
import { extractJson } from "@/lib/optimize/extract-json";
import { PyJsonDecodeError, PyJsonRecursionError, pyJsonLoads } from "@/lib/optimize/py-json";
import { pyTruthy } from "@/lib/optimize/py-values";
import { goldenSection } from "./golden";

type JsonCase = { text: string; result: string | null } | { text: string; crash: "RecursionError" };

const golden = goldenSection<JsonCase[]>("json");

function outcome(text: string): JsonCase {
  try {
    const result = extractJson(text);
    return { text, result: result === null ? null : pyJsonDumps(result) };
  } catch (error) {
    if (error instanceof PyJsonRecursionError) return { text, crash: "RecursionError" };
    throw error;
  }
}

describe("extractJson matches upstream's extract_json (no json_repair)", () => {
  it("has a corpus with parsed, rejected and crashing replies", () => {
    expect(golden.length).toBeGreaterThan(60);
    expect(golden.filter((c) => "result" in c && c.result === null).length).toBeGreaterThan(20);
    expect(golden.some((c) => "crash" in c)).toBe(true);
  });

  for (const [index, expected] of golden.entries()) {
    it(`reply ${index}: ${JSON.stringify(expected.text.slice(0, 50))}`, () => {
      expect(outcome(expected.text)).toEqual(expected);
    });
  }
});

describe("pyJsonLoads", () => {
  it("keeps Python's int/float distinction and constants", () => {
    const value = pyJsonLoads('[1, 1.0, 2e3, -0, NaN, -Infinity]') as unknown[];
    expect(value[0]).toBe(1);
    expect(value[1]).toEqual(new PyFloat(1));
    expect(value[2]).toEqual(new PyFloat(2000));
    expect(Object.is(value[3], 0)).toBe(true);
    expect((value[4] as PyFloat).value).toBeNaN();
    expect(value[5]).toEqual(new PyFloat(-Infinity));
  });

  it("treats a __proto__ key as data", () => {
    const value = pyJsonLoads('{"__proto__": 1}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it("refuses what Python refuses, with the position", () => {
    expect(() => pyJsonLoads('{"a": 1,}')).toThrow(PyJsonDecodeError);
    expect(() => pyJsonLoads("\ufeff{}")).toThrow("Unexpected UTF-8 BOM");
    expect(() => pyJsonLoads("{} x")).toThrow("Extra data: char 3");
  });

  it("knows Python truthiness of parsed values", () => {
    expect([null, false, "", 0, new PyFloat(0), [], {}].map(pyTruthy)).toEqual([false, false, false, false, false, false, false]);
    expect([true, "x", 1, new PyFloat(0.5), [0], { a: 0 }].map(pyTruthy)).toEqual([true, true, true, true, true, true]);
  });
});
