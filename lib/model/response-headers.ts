/**
 * The headers of a response read by keepAliveFetch: a `Headers` (instanceof holds, so the SDK and user code treat it as
 * one) whose fields live in a Map filled once from node:http's raw header list. undici's Headers validates every
 * append, and sorts and lower-cases its whole list on every iteration; the SDK iterates a response's headers twice per
 * request (its log line's x-request-id and its debug details, built even when logging is off) and the Response
 * constructor copies them once more. Read-only, as a fetch response's headers are (mutators throw the TypeError
 * undici throws for an immutable guard).
 */
export class ResponseHeaders extends Headers {
  readonly #fields = new Map<string, string[]>();

  constructor(rawHeaders: readonly string[]) {
    super();
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!.toLowerCase();
      const value = rawHeaders[i + 1]!;
      const values = this.#fields.get(name);
      if (values) values.push(value);
      else this.#fields.set(name, [value]);
    }
  }

  override get(name: string): string | null {
    return this.#fields.get(name.toLowerCase())?.join(", ") ?? null;
  }

  override has(name: string): boolean {
    return this.#fields.has(name.toLowerCase());
  }

  override getSetCookie(): string[] {
    return [...(this.#fields.get("set-cookie") ?? [])];
  }

  /** As the Fetch standard iterates: names sorted and lower-cased, values combined, each set-cookie on its own. */
  override *entries(): HeadersIterator<[string, string]> {
    for (const name of [...this.#fields.keys()].sort()) {
      const values = this.#fields.get(name)!;
      if (name === "set-cookie") for (const value of values) yield [name, value];
      else yield [name, values.join(", ")];
    }
  }

  override *keys(): HeadersIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  override *values(): HeadersIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  override [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  override forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  override append(): void {
    throw immutable();
  }

  override set(): void {
    throw immutable();
  }

  override delete(): void {
    throw immutable();
  }
}

function immutable(): TypeError {
  return new TypeError("immutable");
}
