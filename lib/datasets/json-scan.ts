/**
 * A small strict JSON scanner. V8's JSON.parse messages do not reliably carry a position on Node 20, and JSON.parse
 * cannot say where each list element starts nor parse a 170 MB document without stopping the server for a second or
 * two. The scanner checks syntax (reporting the first error's offset) and records where each element of the dataset
 * list begins and ends — the top-level array, or the array under a top-level "data" key — so a JSON dataset is parsed
 * element by element (lib/datasets/json.ts), with pauses in between.
 */

import { runToEnd } from "./time-slice";

export interface JsonSyntaxProblem {
  /** Offset (UTF-16 code units) of the offending character. */
  offset: number;
  message: string;
  /** A complete value was followed by more text: typical of JSON Lines saved as .json. */
  trailingContent: boolean;
}

export interface JsonScan {
  syntaxProblem?: JsonSyntaxProblem;
  /** Start offsets of the dataset list's elements, when there is such a list. */
  itemOffsets?: number[];
}

export class ScanFailure {
  constructor(
    readonly offset: number,
    readonly message: string,
    readonly trailingContent = false,
  ) {}
}

/**
 * Deeper than this the scanner stops (its recursion would overflow the stack). Far beyond what a record may nest
 * (MAX_NESTING_DEPTH), so a record nested less deep still reaches the validation that names its field.
 */
export const MAX_SCAN_DEPTH = 512;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN_STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

export function scanJson(text: string): JsonScan {
  const scanner = new JsonScanner(text);
  try {
    runToEnd(scanner.scanDocument());
    return scanner.items ? { itemOffsets: scanner.items.starts } : {};
  } catch (error) {
    if (error instanceof ScanFailure) {
      return { syntaxProblem: { offset: error.offset, message: error.message, trailingContent: error.trailingContent } };
    }
    throw error;
  }
}

/** Where the elements of the dataset list are: element i is text.slice(starts[i], ends[i]). */
export interface ItemRanges {
  starts: number[];
  ends: number[];
}

/**
 * Checks a whole document's syntax and finds the dataset list in it (the top-level array, or the array under a
 * top-level "data" key; like JSON.parse, the last "data" key wins). `scanDocument` yields after each element of that
 * list so a caller can pause a long scan; it throws ScanFailure at the first error.
 */
export class JsonScanner {
  private pos = 0;
  private depth = 0;
  items: ItemRanges | undefined;
  /** What the document is at its top: "list", "object" or another value. */
  topKind: "list" | "object" | "value" | undefined;
  /** The value under a top-level "data" key, when there is one (the last one). */
  dataValue: { start: number; end: number } | undefined;

  constructor(private readonly text: string) {}

  *scanDocument(): Generator<void> {
    this.skipWhitespace();
    const first = this.text[this.pos];
    if (first === "[") {
      this.topKind = "list";
      this.items = { starts: [], ends: [] };
      yield* this.scanList(this.items);
    } else if (first === "{") {
      this.topKind = "object";
      yield* this.scanTopObject();
    } else {
      this.topKind = "value";
      this.scanValue();
    }
    this.skipWhitespace();
    if (this.pos < this.text.length) {
      throw new ScanFailure(this.pos, `unexpected ${this.describeHere()} after the end of the JSON value`, true);
    }
  }

  private *scanTopObject(): Generator<void> {
    if (this.openedEmpty("}")) return;
    for (;;) {
      const key = JSON.parse(this.scanPropertyName()) as string;
      this.skipWhitespace();
      const valueStart = this.pos;
      if (key === "data" && this.text[this.pos] === "[") {
        this.items = { starts: [], ends: [] };
        yield* this.scanList(this.items);
      } else {
        if (key === "data") this.items = undefined;
        this.scanValue();
      }
      if (key === "data") this.dataValue = { start: valueStart, end: this.pos };
      if (this.closedAfter("}", "a property value")) return;
    }
  }

  private *scanList(ranges: ItemRanges): Generator<void> {
    if (this.openedEmpty("]")) return;
    for (;;) {
      this.skipWhitespace();
      ranges.starts.push(this.pos);
      this.scanValue();
      ranges.ends.push(this.pos);
      yield;
      if (this.closedAfter("]", "a list element")) return;
    }
  }

  private scanValue(): void {
    const char = this.text[this.pos];
    switch (char) {
      case "{":
        return this.nested(() => this.scanObject());
      case "[":
        return this.nested(() => this.scanArray());
      case '"':
        return this.scanString();
      case "t":
        return this.scanLiteral("true");
      case "f":
        return this.scanLiteral("false");
      case "n":
        return this.scanLiteral("null");
      default:
        if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.scanNumber();
        throw this.unexpected("expected a value");
    }
  }

  /** Counts the depth around a nested list or object, refusing to go past MAX_SCAN_DEPTH. */
  private nested(scan: () => void): void {
    if (this.depth >= MAX_SCAN_DEPTH) throw new ScanFailure(this.pos, `nested more than ${MAX_SCAN_DEPTH} levels deep`);
    this.depth += 1;
    scan();
    this.depth -= 1;
  }

  private scanObject(): void {
    if (this.openedEmpty("}")) return;
    for (;;) {
      this.scanPropertyName();
      this.skipWhitespace();
      this.scanValue();
      if (this.closedAfter("}", "a property value")) return;
    }
  }

  private scanArray(): void {
    if (this.openedEmpty("]")) return;
    for (;;) {
      this.skipWhitespace();
      this.scanValue();
      if (this.closedAfter("]", "a list element")) return;
    }
  }

  /** At "{" or "[": steps over it; true when the container closes at once (and steps over the closing bracket too). */
  private openedEmpty(closing: "}" | "]"): boolean {
    this.pos += 1;
    this.skipWhitespace();
    if (this.text[this.pos] !== closing) return false;
    this.pos += 1;
    return true;
  }

  /** At a property name: scans it and the ":" after it. Returns the name as written (quotes and escapes included). */
  private scanPropertyName(): string {
    this.skipWhitespace();
    if (this.text[this.pos] !== '"') throw this.unexpected("expected a property name in double quotes");
    const start = this.pos;
    this.scanString();
    const literal = this.text.slice(start, this.pos);
    this.skipWhitespace();
    if (this.text[this.pos] !== ":") throw this.unexpected('expected ":" after the property name');
    this.pos += 1;
    return literal;
  }

  /** After a container's element: true at its closing bracket (stepped over), else steps over the "," between. */
  private closedAfter(closing: "}" | "]", element: string): boolean {
    this.skipWhitespace();
    const next = this.text[this.pos];
    if (next === closing) {
      this.pos += 1;
      return true;
    }
    if (next !== ",") throw this.unexpected(`expected "," or "${closing}" after ${element}`);
    this.rejectTrailingComma(closing);
    return false;
  }

  /** At a ",": step over it, but name the common mistake of a comma before the closing bracket. */
  private rejectTrailingComma(closing: string): void {
    const commaAt = this.pos;
    this.pos += 1;
    this.skipWhitespace();
    if (this.text[this.pos] === closing) throw new ScanFailure(commaAt, `trailing comma before "${closing}"`);
  }

  private scanString(): void {
    const start = this.pos;
    this.pos += 1;
    for (;;) {
      PLAIN_STRING_RUN.lastIndex = this.pos;
      PLAIN_STRING_RUN.test(this.text);
      this.pos = PLAIN_STRING_RUN.lastIndex;
      const char = this.text[this.pos];
      if (char === '"') {
        this.pos += 1;
        return;
      }
      if (char === undefined) throw new ScanFailure(start, "string is never closed");
      if (char === "\\") {
        ESCAPE.lastIndex = this.pos;
        if (!ESCAPE.test(this.text)) throw new ScanFailure(this.pos, "invalid escape sequence in string");
        this.pos = ESCAPE.lastIndex;
        continue;
      }
      throw new ScanFailure(this.pos, char === "\n" || char === "\r" ? "line break inside a string" : "control character inside a string");
    }
  }

  private scanNumber(): void {
    NUMBER.lastIndex = this.pos;
    if (!NUMBER.test(this.text)) throw new ScanFailure(this.pos, "invalid number");
    this.pos = NUMBER.lastIndex;
  }

  private scanLiteral(word: string): void {
    if (!this.text.startsWith(word, this.pos)) throw this.unexpected("expected a value");
    this.pos += word.length;
  }

  private skipWhitespace(): void {
    for (;;) {
      const char = this.text[this.pos];
      if (char !== " " && char !== "\n" && char !== "\r" && char !== "\t") return;
      this.pos += 1;
    }
  }

  private unexpected(expectation: string): ScanFailure {
    return new ScanFailure(this.pos, `${expectation}, found ${this.describeHere()}`);
  }

  private describeHere(): string {
    const codePoint = this.text.codePointAt(this.pos);
    if (codePoint === undefined) return "the end of the text";
    const char = String.fromCodePoint(codePoint);
    // Single quotes read better around the usual culprit, a double quote; invisible characters get escaped.
    return codePoint < 0x20 ? JSON.stringify(char) : `'${char}'`;
  }
}
