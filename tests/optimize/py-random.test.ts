/**
 * PyRandom against CPython 3.11's random.Random: every draw recorded by record_core.py ("random" section) must
 * come out the same, including the stream state carried from one kind of draw to the next.
 */
import { describe, expect, it } from "vitest";
import { PyRandom, pyShuffled } from "@/lib/optimize/py-random";
import { pyFloatRepr } from "@/lib/text/python";
import { goldenSection } from "./golden";

interface RandomCase {
  seed: string;
  uint32: number[];
  random: string[];
  getrandbits: { k: number; value: string }[];
  randbelow: { n: number; value: number }[];
  shuffle: number[][];
  sample: { n: number; k: number; value: number[] }[];
  choice: string[];
}
interface RandomGolden {
  cases: RandomCase[];
  fresh_shuffles: { seed: number; n: number; value: number[] }[];
}

const golden = goldenSection<RandomGolden>("random");
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Replays the recorder's draws, in its order, on one PyRandom. */
function replay(expected: RandomCase): RandomCase {
  const seed = BigInt(expected.seed);
  const rng = new PyRandom(Number.isSafeInteger(Number(seed)) ? Number(seed) : seed);
  return {
    seed: expected.seed,
    uint32: expected.uint32.map(() => Number(rng.getrandbits(32))),
    random: expected.random.map(() => pyFloatRepr(rng.random())),
    getrandbits: expected.getrandbits.map(({ k }) => ({ k, value: rng.getrandbits(k).toString() })),
    randbelow: expected.randbelow.map(({ n }) => ({ n, value: rng.randbelow(n) })),
    shuffle: expected.shuffle.map((x) => {
      const items = range(x.length);
      rng.shuffle(items);
      return items;
    }),
    sample: expected.sample.map(({ n, k }) => ({ n, k, value: rng.sample(range(n), k) })),
    choice: expected.choice.map(() => rng.choice([..."abcdefg"])),
  };
}

describe("PyRandom reproduces CPython's random.Random", () => {
  it("covers seeds from 0 to multi-limb and negative ints, both sample strategies", () => {
    expect(golden.cases.map((c) => c.seed)).toEqual(expect.arrayContaining(["0", "42", "-5", "18446744073709563961"]));
    expect(golden.cases.length).toBeGreaterThanOrEqual(15);
  });

  for (const expected of golden.cases) {
    it(`draws the same values for seed ${expected.seed}`, () => {
      expect(replay(expected)).toEqual(expected);
    });
  }

  it("shuffles a fresh copy the way upstream's random.Random(seed).shuffle(list) does", () => {
    const actual = golden.fresh_shuffles.map(({ seed, n }) => ({ seed, n, value: pyShuffled(range(n), seed) }));
    expect(actual).toEqual(golden.fresh_shuffles);
  });

  it("seeds by magnitude: -5 and 5 give the same stream", () => {
    expect(new PyRandom(-5).random()).toBe(new PyRandom(5).random());
  });

  it("refuses what CPython would reject or loop on", () => {
    expect(() => new PyRandom(1.5)).toThrow(RangeError);
    expect(() => new PyRandom(1).randbelow(0)).toThrow(RangeError);
    expect(() => new PyRandom(1).choice([])).toThrow("Cannot choose from an empty sequence");
    expect(() => new PyRandom(1).sample([1, 2], 3)).toThrow("Sample larger than population");
  });
});
