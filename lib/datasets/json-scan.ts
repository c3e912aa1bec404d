/**
 * A small strict JSON scanner used only after something went wrong: V8's JSON.parse messages do not
 * reliably carry a position on Node 20, and JSON.parse cannot say where each list element starts.
 * The scanner checks syntax (reporting the first error's offset) and records where the elements of
 * the dataset list begin — the top-level array, or the array under a top-level "data" key.
 */

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

class ScanFailure {
  constructor(
    readonly offset: number,
    readonly message: string,
    readonly trailingContent = false,
  ) {}
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN_STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

export function scanJson(text: string): JsonScan {
  const scanner = new JsonScanner(text);
  try {
    scanner.scanDocument();
    return scanner.itemOffsets ? { itemOffsets: scanner.itemOffsets } : {};
  } catch (error) {
    if (error instanceof ScanFailure) {
      return { syntaxProblem: { offset: error.offset, message: error.message, trailingContent: error.trailingContent } };
    }
    // Absurdly deep nesting overflows the recursion; then we simply know nothing more.
    if (error instanceof RangeError) return {};
    throw error;
  }
}

class JsonScanner {
  private pos = 0;
  itemOffsets: number[] | undefined;

  constructor(private readonly text: string) {}

  scanDocument(): void {
    this.skipWhitespace();
    const first = this.text[this.pos];
    if (first === "[") {
      this.itemOffsets = [];
      this.scanArray(this.itemOffsets);
    } else if (first === "{") {
      this.scanObject(true);
    } else {
      this.scanValue();
    }
    this.skipWhitespace();
    if (this.pos < this.text.length) {
      throw new ScanFailure(this.pos, `unexpected ${this.describeHere()} after the end of the JSON value`, true);
    }
  }

  private scanValue(): void {
    const char = this.text[this.pos];
    switch (char) {
      case "{":
        return this.scanObject(false);
      case "[":
        return this.scanArray(undefined);
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

  private scanObject(isTopLevel: boolean): void {
    this.pos += 1;
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos += 1;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] !== '"') throw this.unexpected("expected a property name in double quotes");
      const keyStart = this.pos;
      this.scanString();
      const key = isTopLevel ? (JSON.parse(this.text.slice(keyStart, this.pos)) as string) : undefined;
      this.skipWhitespace();
      if (this.text[this.pos] !== ":") throw this.unexpected('expected ":" after the property name');
      this.pos += 1;
      this.skipWhitespace();
      if (key === "data" && this.text[this.pos] === "[") {
        // Like JSON.parse, the last "data" key wins.
        this.itemOffsets = [];
        this.scanArray(this.itemOffsets);
      } else {
        this.scanValue();
      }
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === "}") {
        this.pos += 1;
        return;
      }
      if (next !== ",") throw this.unexpected('expected "," or "}" after a property value');
      this.rejectTrailingComma("}");
    }
  }

  private scanArray(elementOffsets: number[] | undefined): void {
    this.pos += 1;
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos += 1;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      elementOffsets?.push(this.pos);
      this.scanValue();
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === "]") {
        this.pos += 1;
        return;
      }
      if (next !== ",") throw this.unexpected('expected "," or "]" after a list element');
      this.rejectTrailingComma("]");
    }
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

/** 1-based line and column of an offset. */
export function lineAndColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let newline = text.indexOf("\n"); newline !== -1 && newline < offset; newline = text.indexOf("\n", newline + 1)) {
    line += 1;
    lineStart = newline + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Lines of ascending offsets in one pass over the text. */
export function linesAtOffsets(text: string, ascendingOffsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let newline = text.indexOf("\n");
  for (const offset of ascendingOffsets) {
    while (newline !== -1 && newline < offset) {
      line += 1;
      newline = text.indexOf("\n", newline + 1);
    }
    lines.push(line);
  }
  return lines;
}
