/**
 * Golden vectors for the Python-compatibility helpers. tests/fixtures/golden/repr.json was produced with python3
 * (3.11, Unicode 14) from the seed's code paths and holds: `str` (input, repr(input)), `list` (list of str,
 * repr(list)), `float` (input, repr(float)), `fixed` (input, digits, format(input, f".{digits}f")), `whitespace`
 * (input, input.strip(), input.split(), input.splitlines()) and `slice` (input, len(input), start, end|null,
 * input[start:end]).
 */
import { describe, expect, it } from "vitest";
import {
  codePointLength,
  codePointSlice,
  pyFloatRepr,
  pyFormatFixed,
  pyRepr,
  pySplit,
  pySplitlines,
  pyStrip,
} from "@/lib/text/python";
import { mismatches, readGolden } from "../support/golden";

interface ReprGolden {
  str: { input: string; repr: string }[];
  list: { input: string[]; repr: string }[];
  float: { input: number; repr: string }[];
  fixed: { input: number; digits: number; output: string }[];
  whitespace: { input: string; strip: string; split: string[]; splitlines: string[] }[];
  slice: { input: string; length: number; start: number; end: number | null; output: string }[];
}

const golden = readGolden<ReprGolden>("repr.json");

describe("python helpers match python3 golden vectors", () => {
  it("has a meaningful number of cases", () => {
    expect(golden.str.length).toBeGreaterThan(200);
    expect(golden.float.length).toBeGreaterThan(400);
    expect(golden.fixed.length).toBeGreaterThan(300);
  });

  it("repr(str)", () => {
    expect(mismatches(golden.str, (c) => c.repr, (c) => pyRepr(c.input))).toEqual([]);
  });

  it("repr(list of str)", () => {
    expect(mismatches(golden.list, (c) => c.repr, (c) => pyRepr(c.input))).toEqual([]);
  });

  it("repr(float)", () => {
    expect(mismatches(golden.float, (c) => c.repr, (c) => pyFloatRepr(c.input))).toEqual([]);
  });

  it('f"{x:.Nf}"', () => {
    expect(mismatches(golden.fixed, (c) => c.output, (c) => pyFormatFixed(c.input, c.digits))).toEqual([]);
  });

  it("strip(), split(), splitlines()", () => {
    const cases = golden.whitespace;
    expect(mismatches(cases, (c) => c.strip, (c) => pyStrip(c.input))).toEqual([]);
    expect(mismatches(cases, (c) => c.split, (c) => pySplit(c.input))).toEqual([]);
    expect(mismatches(cases, (c) => c.splitlines, (c) => pySplitlines(c.input))).toEqual([]);
  });

  it("len() and slicing in code points", () => {
    const cases = golden.slice;
    expect(mismatches(cases, (c) => c.length, (c) => codePointLength(c.input))).toEqual([]);
    expect(
      mismatches(cases, (c) => c.output, (c) => codePointSlice(c.input, c.start, c.end ?? undefined)),
    ).toEqual([]);
  });
});
