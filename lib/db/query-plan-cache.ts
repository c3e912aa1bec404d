/**
 * A cache of Prisma's query plans, for the reads a process makes again and again.
 *
 * Prisma 6.19's client engine compiles every query into a plan in its wasm query compiler, each time it runs: 0.3-2 ms
 * of the event loop a query (a run with its dataset and skill names: ~1.5 ms). The run page polls its live view every
 * second, with the same queries for the same run each time, and those compilations were about a third of the poll's
 * database time (`loadRunLive` 3.5 ms → 2.1 ms with this cache). Prisma 7 keeps such a cache, but 7 does not work
 * offline here (../shared/STACK.md).
 *
 * A plan is a function of the request and of the compiler alone: the client hands the compiler the request's JSON
 * with every value in it, and executes the plan with no placeholder values of its own. So the plans of model reads
 * are kept per compiler (one per client: its provider and connection), keyed by that JSON, most recently used first.
 * Writes are compiled each time: each carries values of its own (new ids, times), so the same request rarely comes again.
 * A kept plan is a copy, and each use gets its own copy, so nothing the engine does with a plan can reach the next use
 * of it. The CLI keeps plans from one process to the next as well, as templates by request shape, writes included
 * (query-plan-store.ts, query-plan-templates.ts).
 */

/** What the wasm bindings' QueryCompiler class looks like from here: a `compile(requestJson)` on its prototype. */
export interface QueryCompilerClass {
  prototype: { compile(request: string): unknown };
}

/** Plans kept per compiler (per client); the oldest used goes first. */
export const PLANS_PER_COMPILER = 512;
/** Requests longer than this (bulk reads of many ids) are compiled each time rather than kept. */
export const MAX_CACHED_REQUEST_CHARS = 16_384;

// The request's action is among its first members: {"modelName":"Run","action":"findUnique",…}. Raw queries
// ({"action":"queryRaw",…}) are left out: their plan is their SQL and arguments, compiled in a few µs, less than a copy.
const CACHED_ACTION = /^\{(?:"modelName":"[^"]*",)?"action":"(?:findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|findMany|aggregate|groupBy|count)"/;

const PATCHED = Symbol.for("skillboard.queryPlanCache");

export interface QueryPlanCacheStats {
  hits: number;
  misses: number;
}

// On globalThis: Next may load this module more than once, and the compiler's prototype is patched once.
const stats = ((globalThis as unknown as { __skillboardPlanCacheStats?: QueryPlanCacheStats }).__skillboardPlanCacheStats ??= { hits: 0, misses: 0 });

/** Hits and misses of every compiler's cache in this process, since it started (for tests and benchmarks). */
export function queryPlanCacheStats(): QueryPlanCacheStats {
  return { ...stats };
}

/** Whether the plan of `request` may be kept: a model read, not too long to be worth keeping. */
function isKeptRead(request: string): boolean {
  return request.length <= MAX_CACHED_REQUEST_CHARS && CACHED_ACTION.test(request);
}

/** Plans by request, up to a limit: the least recently used goes first. Each plan is kept and handed out as a copy. */
export class KeptPlans {
  // A Map iterates in insertion order: a plan used again is moved to the end, and the first key is the one to evict.
  readonly #plans: Map<string, unknown>;

  constructor(readonly limit: number, entries: Iterable<readonly [string, unknown]> = []) {
    this.#plans = new Map(entries);
  }

  /** A copy of the plan kept for `request`, which becomes the most recently used; undefined if there is none. */
  take(request: string): unknown {
    const kept = this.use(request);
    return kept === undefined ? undefined : clonePlan(kept);
  }

  /** The plan kept for `request` itself, not a copy (the caller copies it), which becomes the most recently used. */
  use(request: string): unknown {
    const kept = this.#plans.get(request);
    if (kept === undefined) return undefined;
    this.#plans.delete(request);
    this.#plans.set(request, kept);
    return kept;
  }

  /** Keeps a copy of `plan` (the engine may change the one it is given). */
  keep(request: string, plan: unknown): void {
    this.#plans.set(request, clonePlan(plan));
    if (this.#plans.size > this.limit) this.#plans.delete(this.#plans.keys().next().value!);
  }

  /** The plans, least recently used first. */
  entries(): [string, unknown][] {
    return [...this.#plans];
  }
}

/** Makes the compilers of this class keep their read plans. Idempotent. */
export function cacheQueryPlans(compilerClass: QueryCompilerClass): void {
  const proto = compilerClass.prototype as QueryCompilerClass["prototype"] & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const compile = proto.compile;
  const caches = new WeakMap<object, KeptPlans>();
  proto.compile = function compileWithCache(this: object, request: string): unknown {
    if (!isKeptRead(request)) return compile.call(this, request);
    let plans = caches.get(this);
    if (!plans) caches.set(this, (plans = new KeptPlans(PLANS_PER_COMPILER)));
    const kept = plans.take(request);
    if (kept !== undefined) {
      stats.hits += 1;
      return kept;
    }
    stats.misses += 1;
    const plan = compile.call(this, request);
    plans.keep(request, plan);
    return plan;
  };
  proto[PATCHED] = true;
}

/**
 * A deep copy of a plan: plain objects, arrays and Maps (what the wasm bindings make) copied here, anything else by
 * structuredClone: a seventh of structuredClone's time for the seven plans of a live poll (0.075 against 0.54 ms).
 * `replaceLeaf`, when given, makes each string and number of the copy (how a template is filled: query-plan-templates.ts).
 */
export function clonePlan(value: unknown, replaceLeaf?: (leaf: string | number) => unknown): unknown {
  if (typeof value !== "object" || value === null) {
    return replaceLeaf && (typeof value === "string" || typeof value === "number") ? replaceLeaf(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => clonePlan(item, replaceLeaf));
  if (value instanceof Map) return new Map(Array.from(value, ([key, entry]) => [key, clonePlan(entry, replaceLeaf)]));
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const entry = clonePlan(source[key], replaceLeaf);
    // An assignment to "__proto__" would set the copy's prototype instead of adding the key.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: entry, enumerable: true, writable: true, configurable: true });
    else copy[key] = entry;
  }
  return copy;
}
