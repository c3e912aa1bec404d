/**
 * Python's `random.Random(seed)`, draw for draw (CPython 3.11: Modules/_randommodule.c and Lib/random.py).
 *
 * Upstream SkillOpt draws every epoch batch, minibatch shuffle, slow-update top-up and ratio split from
 * `random.Random(int_seed).shuffle(...)` (skillopt/datasets/base.py, skillopt/gradient/reflect.py,
 * skillopt/engine/trainer.py); seed parity needs the same permutations here. Ported: the Mersenne Twister
 * MT19937 core, CPython's int seeding (`init_by_array` over the 32-bit limbs of |seed|), `random()`,
 * `getrandbits(k)`, `_randbelow` (the getrandbits rejection method), `shuffle`, `sample` (both strategies)
 * and `choice`. Upstream uses only `shuffle`; the others are here because they share the core and are
 * cheap to pin down with the same golden vectors. Only int seeds are supported: CPython hashes str/bytes/float
 * seeds differently and upstream never passes one.
 */

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

/** CPython's `random.Random` for int seeds. */
export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: number | bigint) {
    this.seed(seed);
  }

  /**
   * `Random.seed(int)`: CPython takes |seed| (so -5 and 5 give the same stream) and feeds its 32-bit limbs,
   * least significant first, to `init_by_array`; 0 becomes the one-limb key [0].
   */
  seed(seed: number | bigint): void {
    if (typeof seed === "number" && !Number.isSafeInteger(seed)) {
      throw new RangeError(`PyRandom seed must be an integer (a bigint beyond 2^53), got ${seed}`);
    }
    let magnitude = BigInt(seed);
    if (magnitude < 0n) magnitude = -magnitude;
    const key: number[] = [];
    while (magnitude > 0n) {
      key.push(Number(magnitude & 0xffffffffn));
      magnitude >>= 32n;
    }
    this.initByArray(key.length > 0 ? key : [0]);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]!;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000; // MSB is 1, assuring a non-zero initial array
  }

  /** `genrand_uint32`: the next 32-bit output of MT19937. */
  private nextUint32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      let kk = 0;
      for (; kk < N - M; kk++) {
        const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
        mt[kk] = mt[kk + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      for (; kk < N - 1; kk++) {
        const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
        mt[kk] = mt[kk + (M - N)]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      const y = (mt[N - 1]! & UPPER_MASK) | (mt[0]! & LOWER_MASK);
      mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random()`: a float in [0, 1) from 53 random bits, `(a*2^26 + b) / 2^53` with a = 27 bits, b = 26 bits. */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `getrandbits(k)` for k ≤ 32, as a number: the top k bits of one 32-bit output (k = 0 draws nothing). */
  private smallRandbits(k: number): number {
    return k === 0 ? 0 : this.nextUint32() >>> (32 - k);
  }

  /**
   * `getrandbits(k)`: k ≤ 32 takes the top k bits of one output; larger k fills 32-bit words least significant
   * first, the last word keeping only its top bits. A bigint, since k may exceed 53.
   */
  getrandbits(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new RangeError("number of bits must be non-negative");
    if (k <= 32) return BigInt(this.smallRandbits(k));
    let result = 0n;
    let shift = 0n;
    for (let remaining = k; remaining > 0; remaining -= 32) {
      let word = this.nextUint32();
      if (remaining < 32) word >>>= 32 - remaining;
      result |= BigInt(word) << shift;
      shift += 32n;
    }
    return result;
  }

  /**
   * `_randbelow_with_getrandbits(n)`: draw `n.bit_length()` bits until the value is below n. n must be > 0
   * (CPython would loop forever on 0).
   */
  randbelow(n: number): number {
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`randbelow needs a positive integer, got ${n}`);
    const k = bitLength(n);
    if (k <= 32) {
      let r = this.smallRandbits(k);
      while (r >= n) r = this.smallRandbits(k);
      return r;
    }
    const limit = BigInt(n);
    let r = this.getrandbits(k);
    while (r >= limit) r = this.getrandbits(k);
    return Number(r);
  }

  /** `shuffle(x)`, in place: for i from len-1 down to 1, swap x[i] with x[_randbelow(i + 1)]. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const held = x[i]!;
      x[i] = x[j]!;
      x[j] = held;
    }
  }

  /** `choice(seq)`: one element, `seq[_randbelow(len(seq))]`. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new RangeError("Cannot choose from an empty sequence");
    return seq[this.randbelow(seq.length)]!;
  }

  /**
   * `sample(population, k)` without `counts`, in selection order. CPython picks its strategy by a set-size
   * heuristic, and the strategies draw differently, so the rule is copied exactly: with
   * setsize = 21 (+ 4^ceil(log_4(3k)) when k > 5), a population no larger than setsize uses the pool method
   * (draw below n - i, move the last unselected item into the hole); a larger one redraws below n until it
   * hits an index not yet selected.
   */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError("Sample larger than population or is negative");
    let setsize = 21;
    // math.log(k * 3, 4) is log(3k) / log(4) in doubles, as here; 3k is never a power of 4, so ceil is stable.
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    const result: T[] = [];
    if (n <= setsize) {
      const pool = [...population];
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result.push(pool[j]!);
        pool[j] = pool[n - i - 1]!;
      }
      return result;
    }
    const selected = new Set<number>();
    for (let i = 0; i < k; i++) {
      let j = this.randbelow(n);
      while (selected.has(j)) j = this.randbelow(n);
      selected.add(j);
      result.push(population[j]!);
    }
    return result;
  }
}

/** Python `int.bit_length()` for a positive safe integer. */
function bitLength(n: number): number {
  return n < 2 ** 32 ? 32 - Math.clz32(n) : 32 + bitLength(Math.floor(n / 2 ** 32));
}

/** `random.Random(seed).shuffle(copy)` on a copy: the idiom upstream uses everywhere. */
export function pyShuffled<T>(items: readonly T[], seed: number | bigint): T[] {
  const copy = [...items];
  new PyRandom(seed).shuffle(copy);
  return copy;
}
