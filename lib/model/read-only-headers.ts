/**
 * A read-only `Headers` (instanceof holds, so the SDK and user code treat it as one) whose fields live in a Map filled
 * once from a raw list (name, value, name, value, …), and whose sorted entries are made on first iteration and kept.
 * undici's Headers validates every append, and sorts and lower-cases its whole list on every iteration.
 *
 * Two uses: the headers of a response read by keepAliveFetch (from node:http's raw list), which the SDK iterates twice
 * per request (its log line's x-request-id and its debug details, built even when logging is off); and the request
 * headers the SDK built once for a client's posts (reused-request-headers.ts), iterated by those debug details and by
 * keepAliveFetch on every request. Mutators throw the TypeError undici throws for an immutable guard.
 */
export class ReadOnlyHeaders extends Headers {
  readonly #fields = new Map<string, string[]>();
  /** Frozen, so the pairs iteration hands out can be the kept ones (undici's iteration makes new pairs each time). */
  #entries: [string, string][] | null = null;

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

  /** A read-only copy of `headers`. */
  static of(headers: Headers): ReadOnlyHeaders {
    const raw: string[] = [];
    for (const [name, value] of headers) raw.push(name, value);
    return new ReadOnlyHeaders(raw);
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

  /**
   * As the Fetch standard iterates: names sorted and lower-cased, values combined, each set-cookie on its own. The kept
   * array's own iterator, not a generator delegating to it: the SDK's debug details and keepAliveFetch iterate a
   * request's headers on every call, and the generator's objects were ~50 MB of a 20,000-item run's ~1.56 GB of
   * allocations (sampling heap profile).
   */
  override entries(): HeadersIterator<[string, string]> {
    return this.sortedEntries()[Symbol.iterator]() as HeadersIterator<[string, string]>;
  }

  override *keys(): HeadersIterator<string> {
    for (const [name] of this.sortedEntries()) yield name;
  }

  override *values(): HeadersIterator<string> {
    for (const [, value] of this.sortedEntries()) yield value;
  }

  override [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  override forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.sortedEntries()) callback.call(thisArg, value, name, this);
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

  private sortedEntries(): readonly [string, string][] {
    if (this.#entries) return this.#entries;
    const entries: [string, string][] = [];
    for (const name of [...this.#fields.keys()].sort()) {
      const values = this.#fields.get(name)!;
      if (name === "set-cookie") for (const value of values) entries.push(Object.freeze([name, value]) as [string, string]);
      else entries.push(Object.freeze([name, values.join(", ")]) as [string, string]);
    }
    return (this.#entries = entries);
  }
}

function immutable(): TypeError {
  return new TypeError("immutable");
}
