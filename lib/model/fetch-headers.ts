/**
 * The Fetch standard's `Headers` (https://fetch.spec.whatwg.org/#headers-class), for the CLI's bundle, where it stands
 * in for Node's global one (scripts/cli-bundle/fetch-headers.mjs, esbuild's `inject`): the OpenAI SDK builds a
 * `new Headers()` for its first request, and read-only-headers.ts extends `Headers`. Node's global class is undici's,
 * and touching it loads undici with http2, tls, zlib, assert and worker_threads: 41–45 ms of a `run`'s start on this
 * host, before its first model request, for a class of a few dozen lines. Elsewhere (the dashboard, tests run from
 * the sources) `Headers` is Node's; this one behaves the same (tests/model/fetch-headers.test.ts compares the two).
 *
 * Names are lower-cased and must be tokens, values are trimmed of HTTP whitespace and may hold no NUL, CR or LF, nor
 * any character past U+00FF (a TypeError otherwise, as Node's); iteration is sorted by name, with one entry per
 * set-cookie value and every other name's values joined by ", ".
 */
export class FetchHeaders {
  readonly #fields = new Map<string, string[]>();

  constructor(init?: HeadersInit | FetchHeaders) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object") throw new TypeError("Headers: the init must be an object, a sequence of pairs or Headers");
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<Iterable<string>>) {
        if (typeof pair === "string" || !pair || typeof (pair as Iterable<string>)[Symbol.iterator] !== "function") {
          throw new TypeError("Headers: each header must be a [name, value] pair");
        }
        const fields = [...pair];
        if (fields.length !== 2) throw new TypeError(`Headers: a header must be a [name, value] pair, not ${fields.length} items`);
        this.append(fields[0]!, fields[1]!);
      }
      return;
    }
    for (const [name, value] of Object.entries(init as Record<string, string>)) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = fieldName(name);
    const normalized = fieldValue(value);
    const values = this.#fields.get(key);
    if (values) values.push(normalized);
    else this.#fields.set(key, [normalized]);
  }

  set(name: string, value: string): void {
    this.#fields.set(fieldName(name), [fieldValue(value)]);
  }

  delete(name: string): void {
    this.#fields.delete(fieldName(name));
  }

  get(name: string): string | null {
    return this.#fields.get(fieldName(name))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.#fields.has(fieldName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#fields.get("set-cookie") ?? [])];
  }

  entries(): IterableIterator<[string, string]> {
    const sorted: [string, string][] = [];
    for (const name of [...this.#fields.keys()].sort()) {
      const values = this.#fields.get(name)!;
      if (name === "set-cookie") for (const value of values) sorted.push([name, value]);
      else sorted.push([name, values.join(", ")]);
    }
    return sorted[Symbol.iterator]();
  }

  keys(): IterableIterator<string> {
    return Array.from(this.entries(), ([name]) => name)[Symbol.iterator]();
  }

  values(): IterableIterator<string> {
    return Array.from(this.entries(), ([, value]) => value)[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, name: string, parent: this) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}

// RFC 9110's token characters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A value may not hold NUL, CR or LF, and must be a byte string.
const FORBIDDEN_IN_VALUE = /[\0\r\n\u0100-\uffff]/;
const HTTP_WHITESPACE_AT_ENDS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function fieldName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: ${JSON.stringify(text)} is not a valid header name`);
  return text.toLowerCase();
}

function fieldValue(value: string): string {
  const text = String(value).replace(HTTP_WHITESPACE_AT_ENDS, "");
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError(`Headers: ${JSON.stringify(text)} is not a valid header value`);
  return text;
}
