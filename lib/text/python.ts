/**
 * Python-compatible string helpers.
 *
 * Skillboard's prompts and scores are ported from a Python module and must come out byte-identical to it.
 * JavaScript differs from Python in ways that change those bytes: `\s` and `trim()` use another whitespace
 * set, `split(/\n/)` is not `splitlines()`, `.length` counts UTF-16 units where Python counts code points,
 * and there is no `repr()` or `format(x, ".4f")` with Python's rounding. Each helper below copies the CPython
 * behaviour it is named after. Character properties come from the JS engine's Unicode tables, so characters
 * assigned after the Unicode version of the Python being matched may differ (see tests/text).
 */

/**
 * Every character for which Python's `str.isspace()` is true (bidi class WS/B/S or category Zs); `str.split()`
 * and `str.strip()` use this set. Unlike JS `\s` it has `\x1c-\x1f` and `\x85` and lacks U+FEFF. Listed one by
 * one (no ranges) so it works both as a plain character list and inside a regex character class.
 */
export const PY_WHITESPACE =
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680" +
  "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" +
  "\u2028\u2029\u202f\u205f\u3000";

const WHITESPACE_UNITS = new Set(Array.from(PY_WHITESPACE, (ch) => ch.charCodeAt(0)));

/** Line boundaries of `str.splitlines()`; `\r\n` counts as one. All are BMP, so code units suffice. */
const LINE_BREAK_UNITS = new Set(
  Array.from("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029", (ch) => ch.charCodeAt(0)),
);

// Loops rather than regexes: `[ws]+$` backtracks quadratically on long whitespace runs.

/** Python `s.strip()` with no argument. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && WHITESPACE_UNITS.has(s.charCodeAt(start))) start++;
  while (end > start && WHITESPACE_UNITS.has(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

/** Python `s.rstrip()` with no argument. */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && WHITESPACE_UNITS.has(s.charCodeAt(end - 1))) end--;
  return s.slice(0, end);
}

/** Python `s.split()` with no argument: split on whitespace runs, never yielding empty tokens. */
export function pySplit(s: string): string[] {
  const tokens: string[] = [];
  let tokenStart = -1;
  for (let i = 0; i < s.length; i++) {
    if (WHITESPACE_UNITS.has(s.charCodeAt(i))) {
      if (tokenStart >= 0) tokens.push(s.slice(tokenStart, i));
      tokenStart = -1;
    } else if (tokenStart < 0) {
      tokenStart = i;
    }
  }
  if (tokenStart >= 0) tokens.push(s.slice(tokenStart));
  return tokens;
}

/** Python `s.splitlines()`: no line ends kept, and a trailing line break does not add an empty line. */
export function pySplitlines(s: string): string[] {
  const lines: string[] = [];
  let lineStart = 0;
  let i = 0;
  while (i < s.length) {
    const unit = s.charCodeAt(i);
    if (!LINE_BREAK_UNITS.has(unit)) {
      i++;
      continue;
    }
    lines.push(s.slice(lineStart, i));
    i += unit === 0x0d && s.charCodeAt(i + 1) === 0x0a ? 2 : 1;
    lineStart = i;
  }
  if (lineStart < s.length) lines.push(s.slice(lineStart));
  return lines;
}

const ANY_SURROGATE = /[\uD800-\uDFFF]/;

function isSurrogatePairAt(s: string, i: number): boolean {
  const unit = s.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdbff) return false;
  const next = s.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff;
}

/** Python `len(s)`: code points, so an emoji counts once (a lone surrogate also counts once, as in Python). */
export function codePointLength(s: string): number {
  // Most text has no surrogate at all, and then each UTF-16 unit is a code point. The regex scan is native: for 2,000
  // contexts of ~3,400 characters (counted at import, and again for each prompt) 0.3 ms instead of 13-15 ms.
  if (!ANY_SURROGATE.test(s)) return s.length;
  let count = 0;
  for (let i = 0; i < s.length; i += isSurrogatePairAt(s, i) ? 2 : 1) count++;
  return count;
}

/** UTF-16 offset reached by stepping `count` code points forward from `fromUnit` (clamped to the end). */
function advanceCodePoints(s: string, fromUnit: number, count: number): number {
  let i = fromUnit;
  for (let seen = 0; seen < count && i < s.length; seen++) i += isSurrogatePairAt(s, i) ? 2 : 1;
  return i;
}

/**
 * Python `s[start:end]` with code-point indices (negative indices count from the end, out-of-range ones clamp),
 * so a cut never splits a surrogate pair.
 */
export function codePointSlice(s: string, start: number, end?: number): string {
  const needsLength = start < 0 || (end !== undefined && end < 0);
  const length = needsLength ? codePointLength(s) : Infinity;
  const resolve = (index: number): number => (index < 0 ? Math.max(0, index + length) : index);
  const from = resolve(Math.trunc(start));
  const to = end === undefined ? Infinity : resolve(Math.trunc(end));
  if (to <= from) return "";
  const fromUnit = advanceCodePoints(s, 0, from);
  const toUnit = to === Infinity ? s.length : advanceCodePoints(s, fromUnit, to - from);
  return s.slice(fromUnit, toUnit);
}

// CPython's Py_UNICODE_ISPRINTABLE is false for these categories; U+0020 is the one printable Zs.
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hexEscape(prefix: string, codePoint: number, width: number): string {
  return prefix + codePoint.toString(16).padStart(width, "0");
}

/** Python `repr(s)` for a str, following CPython's unicode_repr. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += hexEscape("\\x", cp, 2);
    else if (cp < 0x7f || !NON_PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += hexEscape("\\x", cp, 2);
    else if (cp <= 0xffff) out += hexEscape("\\u", cp, 4);
    else out += hexEscape("\\U", cp, 8);
  }
  return out + quote;
}

/**
 * Python `repr()` of the values the seed prints: str, float (every JS number is treated as a Python float, so
 * `1` prints `1.0`), bool, None and lists of those (`['a', 'b']`).
 */
export function pyRepr(value: string | number | boolean | null | readonly (string | number)[]): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return pyFloatRepr(value);
  if (typeof value === "string") return pyStrRepr(value);
  return "[" + value.map((item) => pyRepr(item)).join(", ") + "]";
}

/** The sign bit, binary exponent and 53-bit significand of a finite double: |x| = significand * 2^exponent. */
function decomposeDouble(x: number): { negative: boolean; significand: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const biasedExponent = (high >>> 20) & 0x7ff;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  const negative = high >>> 31 === 1;
  if (biasedExponent === 0) return { negative, significand: fraction, exponent: -1074 };
  return { negative, significand: fraction | (1n << 52n), exponent: biasedExponent - 1075 };
}

function nonFiniteRepr(n: number): string {
  if (Number.isNaN(n)) return "nan";
  return n > 0 ? "inf" : "-inf";
}

/**
 * Python `repr(float)`: the shortest digits that round-trip (JS `String(n)` picks the same digits), laid out
 * Python's way: fixed notation with at least one fractional digit (`1.0`) when the decimal exponent is in
 * [-4, 16), otherwise `1e-05` / `1.5e+16` (two-digit minimum exponent, explicit sign).
 */
export function pyFloatRepr(n: number): string {
  if (!Number.isFinite(n)) return nonFiniteRepr(n);
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const sign = n < 0 ? "-" : "";
  // Read the digits and the decimal point position out of JS's shortest representation.
  const [mantissa = "", exponentText] = String(Math.abs(n)).split("e");
  const pointAt = mantissa.indexOf(".");
  const rawDigits = mantissa.replace(".", "");
  const leadingZeros = rawDigits.length - rawDigits.replace(/^0+/, "").length;
  const digits = rawDigits.slice(leadingZeros).replace(/0+$/, "");
  // Value = 0.<digits> * 10^pointPosition.
  const pointPosition =
    (pointAt < 0 ? mantissa.length : pointAt) - leadingZeros + (exponentText ? Number(exponentText) : 0);

  if (pointPosition > -4 && pointPosition <= 16) {
    if (pointPosition <= 0) return `${sign}0.${"0".repeat(-pointPosition)}${digits}`;
    if (pointPosition >= digits.length) return `${sign}${digits}${"0".repeat(pointPosition - digits.length)}.0`;
    return `${sign}${digits.slice(0, pointPosition)}.${digits.slice(pointPosition)}`;
  }
  const exponent = pointPosition - 1;
  const fractionDigits = digits.length > 1 ? `.${digits.slice(1)}` : "";
  const exponentDigits = String(Math.abs(exponent)).padStart(2, "0");
  return `${sign}${digits[0] ?? ""}${fractionDigits}e${exponent < 0 ? "-" : "+"}${exponentDigits}`;
}

/**
 * Python `f"{n:.{digits}f}"`. Rounds the exact binary value half-to-even, as CPython does; JS `toFixed` rounds
 * exact ties up (`(0.03125).toFixed(4)` is "0.0313", Python gives "0.0312", and F1 = 1/32 happens), and switches
 * to exponent notation from 1e21. Keeps the sign of negative values that round to zero ("-0.0000"), like Python.
 */
export function pyFormatFixed(n: number, digits: number): string {
  if (!Number.isInteger(digits) || digits < 0) throw new RangeError(`invalid precision: ${digits}`);
  if (!Number.isFinite(n)) return nonFiniteRepr(n);
  // toFixed rounds the exact binary value too, and differs only on an exact tie, on -0 and from 1e21. Far from a tie
  // (the scaled value's fraction more than 1e-6 from one half, which its float product is good to for values under
  // 1e9), it gives Python's digits at a fraction of the BigInt work below (~0.02 ms per scored item, every F1 goes
  // through here for the seed's evaluation record).
  const scaledFloat = Math.abs(n) * 10 ** digits;
  if (digits <= 20 && scaledFloat < 1e9 && !Object.is(n, -0) && Math.abs(scaledFloat - Math.floor(scaledFloat) - 0.5) > 1e-6) {
    return n.toFixed(digits);
  }
  const { negative, significand, exponent } = decomposeDouble(n);
  const scale = 10n ** BigInt(digits);
  let scaled: bigint;
  if (exponent >= 0) {
    scaled = (significand << BigInt(exponent)) * scale;
  } else {
    const numerator = significand * scale;
    const denominator = 1n << BigInt(-exponent);
    scaled = numerator / denominator;
    const twiceRemainder = 2n * (numerator % denominator);
    if (twiceRemainder > denominator || (twiceRemainder === denominator && scaled % 2n === 1n)) scaled += 1n;
  }
  const text = scaled.toString().padStart(digits + 1, "0");
  const integerPart = text.slice(0, text.length - digits);
  const fractionPart = digits > 0 ? `.${text.slice(text.length - digits)}` : "";
  return `${negative ? "-" : ""}${integerPart}${fractionPart}`;
}
