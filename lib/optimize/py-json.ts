/**
 * Python's `json.loads(str)` (CPython 3.11 Lib/json/decoder.py with the C scanner), for reading model replies
 * the way upstream SkillOpt does (skillopt/utils/json_utils.py calls `json.loads`).
 *
 * Why not `JSON.parse`: Python accepts `NaN`, `Infinity` and `-Infinity`, and it tells ints from floats
 * (`1` vs `1.0`), which decides what upstream keeps (ranking keeps an index only if it is an int) and how it is
 * printed back into later prompts (`json.dumps` writes `1.0`). So floats come back as `PyFloat` (the project's
 * marker for a Python float, printed by `pyJsonDumps`), ints as plain numbers.
 *
 * Known differences, documented rather than fixed: ints beyond 2^53 lose precision (Python keeps them exact);
 * objects are JS objects, so integer-like keys ("2") are enumerated before the others, where Python keeps
 * insertion order; and nesting deeper than `MAX_DEPTH` throws `PyJsonRecursionError` where CPython raises
 * RecursionError near its recursion limit (about 1000 frames, minus the caller's own depth).
 */
import { PyFloat, type PyJson } from "@/lib/export/python-json";
import { UpstreamCrashError } from "./py-values";

/** Nesting depth at which CPython's decoder gives up with RecursionError (approximately; see above). */
export const MAX_DEPTH = 1000;

/** `json.JSONDecodeError`: the text is not JSON by Python's rules. */
export class PyJsonDecodeError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message}: char ${position}`);
    this.name = "PyJsonDecodeError";
  }
}

/**
 * Upstream would not return from `json.loads` here: CPython raises RecursionError, which upstream's
 * `except json.JSONDecodeError` does not catch. Callers record the reply as a failure and go on.
 */
export class PyJsonRecursionError extends UpstreamCrashError {
  constructor() {
    super("RecursionError: maximum recursion depth exceeded while decoding a JSON document");
    this.name = "PyJsonRecursionError";
  }
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]); // json.decoder.WHITESPACE = [ \t\n\r]*
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** `json.loads(text)` for a str argument. */
export function pyJsonLoads(text: string): PyJson {
  if (text.startsWith("\ufeff")) throw new PyJsonDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.at < text.length) throw new PyJsonDecodeError("Extra data", parser.at);
  return value;
}

class Parser {
  at = 0;
  constructor(private readonly text: string) {}

  skipWhitespace(): void {
    while (this.at < this.text.length && WHITESPACE.has(this.text[this.at]!)) this.at++;
  }

  value(depth: number): PyJson {
    const { text } = this;
    const ch = text[this.at];
    if (ch === '"') return this.string();
    if (ch === "{") return this.object(depth + 1);
    if (ch === "[") return this.array(depth + 1);
    for (const [word, result] of CONSTANTS) {
      if (text.startsWith(word, this.at)) {
        this.at += word.length;
        return result;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(text);
    if (match === null) throw new PyJsonDecodeError("Expecting value", this.at);
    this.at += match[0].length;
    if (match[1] === undefined && match[2] === undefined) {
      const n = Number(match[0]);
      return n === 0 ? 0 : n; // Python's int has no -0
    }
    return new PyFloat(Number(match[0]));
  }

  private string(): string {
    const { text } = this;
    let out = "";
    let chunkStart = ++this.at;
    for (;;) {
      if (this.at >= text.length) throw new PyJsonDecodeError("Unterminated string starting at", chunkStart - 1);
      const code = text.charCodeAt(this.at);
      if (code === 0x22) {
        out += text.slice(chunkStart, this.at++);
        return out;
      }
      if (code < 0x20) throw new PyJsonDecodeError("Invalid control character at", this.at);
      if (code !== 0x5c) {
        this.at++;
        continue;
      }
      out += text.slice(chunkStart, this.at);
      const escape = text[this.at + 1];
      if (escape === "u") {
        const hex = text.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new PyJsonDecodeError("Invalid \\uXXXX escape", this.at + 1);
        out += String.fromCharCode(parseInt(hex, 16)); // a surrogate pair arrives as two escapes, as in Python
        this.at += 6;
      } else if (escape !== undefined && escape in ESCAPES) {
        out += ESCAPES[escape];
        this.at += 2;
      } else {
        throw new PyJsonDecodeError("Invalid \\escape", this.at);
      }
      chunkStart = this.at;
    }
  }

  private object(depth: number): { [key: string]: PyJson } {
    if (depth > MAX_DEPTH) throw new PyJsonRecursionError();
    const result: { [key: string]: PyJson } = {};
    this.at++;
    this.skipWhitespace();
    if (this.text[this.at] === "}") {
      this.at++;
      return result;
    }
    for (;;) {
      if (this.text[this.at] !== '"') {
        throw new PyJsonDecodeError("Expecting property name enclosed in double quotes", this.at);
      }
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.at] !== ":") throw new PyJsonDecodeError("Expecting ':' delimiter", this.at);
      this.at++;
      this.skipWhitespace();
      // defineProperty: a "__proto__" key is data, and a repeated key keeps its first position (as a dict does).
      Object.defineProperty(result, key, { value: this.value(depth), enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const next = this.text[this.at++];
      if (next === "}") return result;
      if (next !== ",") throw new PyJsonDecodeError("Expecting ',' delimiter", this.at - 1);
      this.skipWhitespace();
    }
  }

  private array(depth: number): PyJson[] {
    if (depth > MAX_DEPTH) throw new PyJsonRecursionError();
    const result: PyJson[] = [];
    this.at++;
    this.skipWhitespace();
    if (this.text[this.at] === "]") {
      this.at++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth));
      this.skipWhitespace();
      const next = this.text[this.at++];
      if (next === "]") return result;
      if (next !== ",") throw new PyJsonDecodeError("Expecting ',' delimiter", this.at - 1);
      this.skipWhitespace();
    }
  }
}

const CONSTANTS: readonly (readonly [string, PyJson])[] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", new PyFloat(Number.NaN)],
  ["Infinity", new PyFloat(Number.POSITIVE_INFINITY)],
  ["-Infinity", new PyFloat(Number.NEGATIVE_INFINITY)],
];
