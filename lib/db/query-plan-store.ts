import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { KeptPlans, MAX_CACHED_REQUEST_CHARS } from "./query-plan-cache";
import { fillTemplate, shapeOf, verifiedTemplate } from "./query-plan-templates";

/**
 * Prisma's query plans kept in a folder between processes (the CLI's), as templates by request shape
 * (query-plan-templates.ts), and its query compiler built only when a request's shape has none.
 *
 * Every process that opened the database instantiated Prisma's wasm query compiler (it parses the whole schema) and
 * compiled each of its queries, though the plans come out the same from one process to the next: in a profile of
 * `skill list` on an empty database, ~60 of its ~320 ms (`skill list`, 15 alternating starts: 422 → 365 ms, 84.5 → 79
 * MB once its reads were kept). Kept by request, as they were at first, only repeated reads were found again: a `run`
 * compiled its ~20 queries before its first model request (its dataset's hash, its skill's name, the new rows' ids are
 * in them), and built the compiler for the first (~55 ms, then ~3-5 ms a query). Kept by shape, a run whose queries
 * were all seen by an earlier process (any earlier run) builds no compiler: a 2,000-item run's first request came
 * 0.613 → 0.555 s after its start on average, six alternating pairs (the commit that made templates has the figures).
 *
 * The engine loads its compiler through the generated client's `compilerWasm` (the bindings' module, then the wasm's),
 * instantiates the wasm and takes the bindings' class, once per provider and process. The client is handed a
 * `compilerWasm` whose class is ours and whose wasm is empty; ours loads Prisma's with it, and links it as the engine
 * would when a compiler is first built.
 *
 * A plan is a function of the request and the compiler alone (query-plan-cache.ts): the compiler is Prisma's version,
 * the schema, the provider and the connection's description, and their fingerprint names the file, so templates of
 * another schema or Prisma are never read. A shape seen for the first time costs a second compilation (of the shape
 * itself, to prove its template); one without a template is remembered as such. Templates are written by
 * saveQueryPlans() (the CLI calls it as it exits), through a file renamed into place: a reader sees a whole file or
 * the one before; of two processes saving at once, the last wins. A file that cannot be read is as if empty, one that
 * cannot be written is left: this is a cache.
 */

/** Templates (shapes) a file keeps; the least recently used go first. */
export const STORED_PLANS = 128;

const FORMAT = "skillboard-query-plans/2";

/** Kept for a shape that has no template (query-plan-templates.ts): its requests are compiled, without trying again. */
const NO_TEMPLATE = false;

/** What the generated client gives Prisma's engine to load its query compiler (config.compilerWasm). */
interface CompilerWasm {
  getRuntime(): Promise<CompilerRuntime>;
  getQueryCompilerWasmModule(): Promise<WebAssembly.Module>;
}

/** The compiler's wasm-bindgen module, which the engine links to the wasm's instance. */
interface CompilerRuntime {
  QueryCompiler: new (params: CompilerParams) => Compiler;
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
}

interface CompilerParams {
  datamodel: string;
  provider: string;
  connectionInfo: unknown;
}

interface Compiler {
  compile(request: string): unknown;
  compileBatch(request: string): unknown;
  free(): void;
}

interface EngineConfig {
  compilerWasm?: CompilerWasm;
  clientVersion?: string;
  engineVersion?: string;
}

/**
 * A module whose only export is an empty `__wbindgen_start`: what the engine instantiates and starts in place of the
 * compiler's (the real one is instantiated when a compiler is first needed).
 */
const EMPTY_START_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // one type: () -> ()
  0x03, 0x02, 0x01, 0x00, // one function, of that type
  0x07, 0x14, 0x01, 0x10, ...Buffer.from("__wbindgen_start"), 0x00, 0x00, // exported as __wbindgen_start
  0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b, // its body: no locals, end
]);

/**
 * The query compiler's wasm as the generated client imports it: `{ wasm }`, its bytes in base64 (in the CLI bundle, a
 * stand-in gives the bytes' ArrayBuffer: scripts/cli.mjs).
 */
export type CompilerWasmSource = () => Promise<{ wasm: string | ArrayBuffer }>;

/**
 * Makes the client `db` (not yet connected) answer its reads from the plans kept in `folder`, and build its query
 * compiler only for a query that is not; the plans compiled are kept, for saveQueryPlans() to write. `wasmSource`: where
 * the client's generated code imports its compiler's wasm from. A client of a Prisma without the engine configuration
 * this relies on is left as it is.
 *
 * The wasm is compiled when a compiler is first built, not as the client connects (where the engine compiles it):
 * compiling it took ~22 ms of every `skill list`, which never builds one.
 */
export function keepQueryPlansIn(db: object, folder: string, wasmSource: CompilerWasmSource): void {
  const config = (db as { _engineConfig?: EngineConfig })._engineConfig;
  const wasm = config?.compilerWasm;
  if (!config || typeof wasm?.getRuntime !== "function" || typeof wasm.getQueryCompilerWasmModule !== "function") return;
  const versions = `${config.clientVersion ?? ""}/${config.engineVersion ?? ""}`;
  let runtime: CompilerRuntime | null = null;
  let source: { wasm: string | ArrayBuffer } | null = null;
  let instantiated = false;
  // Prisma's own loading (its loadQueryCompiler), done when a compiler is first needed: once per process.
  const realCompiler = (params: CompilerParams): Compiler => {
    if (!runtime || !source) throw new Error("keepQueryPlansIn: the query compiler was needed before it was loaded");
    if (!instantiated) {
      const bytes = typeof source.wasm === "string" ? Buffer.from(source.wasm, "base64") : new Uint8Array(source.wasm);
      const wasmModule = new WebAssembly.Module(bytes);
      const instance = new WebAssembly.Instance(wasmModule, { "./query_compiler_bg.js": runtime as unknown as WebAssembly.ModuleImports });
      runtime.__wbg_set_wasm(instance.exports);
      (instance.exports.__wbindgen_start as () => void)();
      instantiated = true;
    }
    return new runtime.QueryCompiler(params);
  };
  const QueryCompiler = deferredCompilerClass(realCompiler, (params) => planSetFor(folder, versions, params));
  config.compilerWasm = {
    async getRuntime() {
      runtime = await wasm.getRuntime();
      return { QueryCompiler, __wbg_set_wasm() {} };
    },
    async getQueryCompilerWasmModule() {
      source = await wasmSource();
      return new WebAssembly.Module(EMPTY_START_MODULE);
    },
  };
}

/** Writes the plans compiled since they were read (or last written) to their files. */
export function saveQueryPlans(): void {
  for (const set of unsaved) {
    unsaved.delete(set);
    const temporary = `${set.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(set.file), { recursive: true });
      writeFileSync(temporary, serialize({ format: FORMAT, fingerprint: set.fingerprint, templates: set.templates.entries() }));
      renameSync(temporary, set.file);
    } catch {
      rmSync(temporary, { force: true });
    }
  }
}

/** The plans of one compiler (its fingerprint), and the file they are kept in. */
interface PlanSet {
  file: string;
  fingerprint: string;
  /** Plan templates by request shape (query-plan-templates.ts), or NO_TEMPLATE. */
  templates: KeptPlans;
}

/** Each file's plans, read once per process; the ones with plans not yet written. */
const planSets = new Map<string, PlanSet>();
const unsaved = new Set<PlanSet>();

function planSetFor(folder: string, versions: string, params: CompilerParams): PlanSet {
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([versions, params.provider, params.connectionInfo, params.datamodel]))
    .digest("hex");
  const file = join(folder, `query-plans-${fingerprint.slice(0, 24)}.v8`);
  let set = planSets.get(file);
  if (!set) planSets.set(file, (set = { file, fingerprint, templates: new KeptPlans(STORED_PLANS, readTemplates(file, fingerprint)) }));
  return set;
}

function readTemplates(file: string, fingerprint: string): [string, unknown][] {
  try {
    const stored = deserialize(readFileSync(file)) as { format?: unknown; fingerprint?: unknown; templates?: unknown };
    if (stored.format !== FORMAT || stored.fingerprint !== fingerprint || !Array.isArray(stored.templates)) return [];
    return (stored.templates as unknown[]).filter(
      (entry): entry is [string, unknown] => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string",
    );
  } catch {
    return [];
  }
}

/**
 * The class the engine builds its compiler from: each instance answers a kept read with a copy of its plan, and hands
 * anything else to a compiler of its own, built the first time one is needed.
 */
function deferredCompilerClass(realCompiler: (params: CompilerParams) => Compiler, planSet: (params: CompilerParams) => PlanSet) {
  return class DeferredQueryCompiler implements Compiler {
    readonly #params: CompilerParams;
    readonly #set: PlanSet;
    #compiler: Compiler | null = null;

    constructor(params: CompilerParams) {
      this.#params = params;
      this.#set = planSet(params);
    }

    compile(request: string): unknown {
      const shaped = shapeOf(request);
      if (!shaped || shaped.shape.length > MAX_CACHED_REQUEST_CHARS) return this.#real().compile(request);
      const kept = this.#set.templates.use(shaped.shape);
      if (kept === NO_TEMPLATE) return this.#real().compile(request);
      if (kept !== undefined) return fillTemplate(kept, shaped.values);
      const plan = this.#real().compile(request);
      this.#set.templates.keep(shaped.shape, verifiedTemplate((shape) => this.#real().compile(shape), shaped, plan) ?? NO_TEMPLATE);
      unsaved.add(this.#set);
      return plan;
    }

    compileBatch(request: string): unknown {
      return this.#real().compileBatch(request);
    }

    free(): void {
      this.#compiler?.free();
      this.#compiler = null;
    }

    [Symbol.dispose](): void {
      this.free();
    }

    #real(): Compiler {
      return (this.#compiler ??= realCompiler(this.#params));
    }
  };
}
