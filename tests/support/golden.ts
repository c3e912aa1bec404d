import { readFileSync } from "node:fs";

/**
 * A golden-vector file of tests/fixtures/golden/ (outputs the Python original produced; each test file describes
 * its own), parsed as the type the caller names.
 */
export function readGolden<T>(fileName: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/golden/${fileName}`, import.meta.url), "utf8")) as T;
}

/**
 * Every case whose actual value differs from the expected one, so that one failure report lists them all:
 * `expect(mismatches(cases, (c) => c.output, (c) => f(c.input))).toEqual([])`. Values are compared as JSON, and
 * numbers also with Object.is (JSON writes -0 as 0, and Python's repr tells them apart).
 */
export function mismatches<C, V>(cases: readonly C[], expected: (c: C) => V, actual: (c: C) => V): { index: number; case: C; got: V }[] {
  return cases.flatMap((c, index) => {
    const [want, got] = [expected(c), actual(c)];
    return JSON.stringify(want) === JSON.stringify(got) && (typeof want !== "number" || Object.is(want, got)) ? [] : [{ index, case: c, got }];
  });
}
