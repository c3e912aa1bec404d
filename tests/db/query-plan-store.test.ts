// Prisma's plans kept in a folder between processes as templates by request shape, its query compiler built only when
// a query's shape has none: here with a stand-in for the compiler's wasm module, loaded as Prisma's engine loads it, whose
// plans hold the request's values as Prisma's do (the real compiler's plans: tests/db/query-plan-templates.test.ts; the
// CLI's own use, one process after another: tests/cli/launcher.test.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deserialize } from "node:v8";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { shapeOf } from "@/lib/db/query-plan-templates";

type Store = typeof import("@/lib/db/query-plan-store");

const read = (id: number, model = "Run") => `{"modelName":"${model}","action":"findUnique","query":{"arguments":{"where":{"id":${id}}}}}`;
const write = (name: string) => `{"modelName":"Skill","action":"createOne","query":{"arguments":{"data":{"name":"${name}"}}}}`;
const search = (text: string) => `{"modelName":"Skill","action":"findMany","query":{"arguments":{"where":{"name":{"contains":"${text}"}}}}}`;

/** The stand-in's plan of a request: as Prisma's, its SQL (here the request without its values) and the values as arguments. */
function standInPlan(request: string) {
  const args: string[] = [];
  const sql = JSON.stringify(JSON.parse(request), (key, value: unknown) =>
    (typeof value === "string" && key !== "modelName" && key !== "action") || typeof value === "number" ? (args.push(String(value)), "?") : value,
  );
  // A `contains` filter's argument is a LIKE pattern, as Prisma writes it: the value in another form than the request's.
  return { sql, args: request.includes('"contains"') ? args.map((arg) => `%${arg}%`) : args, enums: new Map([["status", [1n, "done"]]]), at: new Date(0) };
}

/** A module exporting an empty __wbindgen_start, as a wasm-bindgen module does (what the engine instantiates). */
const START_ONLY_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
  0x07, 0x14, 0x01, 0x10, ...Buffer.from("__wbindgen_start"), 0x00, 0x00, 0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b,
]);

/** A stand-in for the compiler's wasm-bindgen module: counts the compilers built, their compilations and frees. */
function standInCompiler() {
  const counts = { built: 0, compiled: 0, freed: 0, linked: 0 };
  class QueryCompiler {
    constructor(readonly params: { datamodel: string }) {
      counts.built += 1;
    }
    compile(request: string) {
      counts.compiled += 1;
      return standInPlan(request);
    }
    compileBatch(request: string) {
      counts.compiled += 1;
      return { batch: request };
    }
    free() {
      counts.freed += 1;
    }
  }
  const runtime = {
    QueryCompiler,
    __wbg_set_wasm(exports: WebAssembly.Exports) {
      if (typeof exports.__wbindgen_start === "function") counts.linked += 1;
    },
  };
  // The engine configuration's own wasm loader, which the store replaces: it takes the wasm from its source instead.
  const compilerWasm = {
    getRuntime: async () => runtime,
    getQueryCompilerWasmModule: async () => new WebAssembly.Module(START_ONLY_MODULE),
  };
  return { counts, compilerWasm };
}

/** The wasm's source as the generated client imports it: base64 (the CLI bundle's stand-in gives an ArrayBuffer). */
const base64Source = async () => ({ wasm: Buffer.from(START_ONLY_MODULE).toString("base64") });
type WasmSource = Parameters<Store["keepQueryPlansIn"]>[2];

/** A client as the store sees it: Prisma's engine configuration. */
function clientOf(compilerWasm: unknown, datamodel = "model Run { id Int @id }") {
  return { _engineConfig: { compilerWasm, clientVersion: "6.19.0", engineVersion: "abc" }, datamodel };
}

/** The engine's loading of its compiler (Prisma 6.19's loadQueryCompiler), then the compiler it builds on connecting. */
async function connect(client: ReturnType<typeof clientOf>) {
  const wasm = client._engineConfig.compilerWasm as ReturnType<typeof standInCompiler>["compilerWasm"];
  const runtime = await wasm.getRuntime();
  const wasmModule = await wasm.getQueryCompilerWasmModule();
  const instance = new WebAssembly.Instance(wasmModule, { "./query_compiler_bg.js": runtime as unknown as WebAssembly.ModuleImports });
  runtime.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return new runtime.QueryCompiler({ datamodel: client.datamodel, provider: "sqlite", connectionInfo: { supportsRelationJoins: false } } as never);
}

/** A new process: the store loaded afresh (nothing read yet), a client on a stand-in compiler, connected. */
async function startProcess(datamodel?: string, wasmSource: WasmSource = base64Source) {
  vi.resetModules();
  const store: Store = await import("@/lib/db/query-plan-store");
  const { counts, compilerWasm } = standInCompiler();
  const client = clientOf(compilerWasm, datamodel);
  store.keepQueryPlansIn(client, folder, wasmSource);
  const compiler = await connect(client);
  return { store, counts, compiler };
}

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "skillboard-plans-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const planFiles = () => readdirSync(folder).filter((name) => name.endsWith(".v8"));
const storedShapes = () =>
  (deserialize(readFileSync(join(folder, planFiles()[0]!))) as { templates: [string, unknown][] }).templates.map(([shape]) => shape);

describe("keepQueryPlansIn", () => {
  it("answers requests of the shapes an earlier process compiled from its file, whatever their values, with no compiler built", async () => {
    const first = await startProcess();
    expect(first.counts.built).toBe(0);
    expect(first.compiler.compile(read(1))).toStrictEqual(standInPlan(read(1)));
    // The request, and its shape to make the template from.
    expect(first.counts).toMatchObject({ built: 1, compiled: 2, linked: 1 });
    first.compiler.compile(write("x"));
    first.store.saveQueryPlans();
    expect(planFiles()).toHaveLength(1);

    const second = await startProcess();
    expect(second.compiler.compile(read(7))).toStrictEqual(standInPlan(read(7)));
    expect(second.compiler.compile(write("another name"))).toStrictEqual(standInPlan(write("another name")));
    expect(second.counts).toMatchObject({ built: 0, compiled: 0, linked: 0 });
  });

  it("builds the compiler once, at the first query it must compile, and compiles batches every time", async () => {
    // The wasm as the CLI bundle's stand-in gives it: its bytes' ArrayBuffer.
    const { store, counts, compiler } = await startProcess(undefined, async () => ({ wasm: START_ONLY_MODULE.slice().buffer }));
    compiler.compile(write("a"));
    compiler.compile(write("b"));
    compiler.compileBatch(`{"batch":[${read(1)}]}`);
    compiler.compileBatch(`{"batch":[${read(1)}]}`);
    compiler.compile(read(2));
    compiler.compile(read(3));
    expect(counts).toMatchObject({ built: 1, compiled: 6, linked: 1 });
    compiler.free();
    expect(counts.freed).toBe(1);
    store.saveQueryPlans();
    expect(storedShapes()).toEqual([shapeOf(write("a"))!.shape, shapeOf(read(2))!.shape]);
  });

  it("compiles every time a request whose plan holds a value in another form than the request's", async () => {
    const first = await startProcess();
    expect(first.compiler.compile(search("ab"))).toStrictEqual(standInPlan(search("ab")));
    expect(first.compiler.compile(search("cd"))).toStrictEqual(standInPlan(search("cd")));
    // The first request, its shape (refused), then the second request: the shape is not tried again.
    expect(first.counts.compiled).toBe(3);
    first.store.saveQueryPlans();
    const second = await startProcess();
    expect(second.compiler.compile(search("ef"))).toStrictEqual(standInPlan(search("ef")));
    expect(second.counts).toMatchObject({ built: 1, compiled: 1 });
  });

  it("compiles the wasm only when a compiler is first built", async () => {
    const first = await startProcess();
    first.compiler.compile(read(1));
    first.store.saveQueryPlans();

    // Bytes that are not wasm at all: connecting and a request of a kept shape need none of them; the first compilation does.
    const second = await startProcess(undefined, async () => ({ wasm: Buffer.from("not wasm").toString("base64") }));
    expect(second.compiler.compile(read(5))).toStrictEqual(standInPlan(read(5)));
    expect(() => second.compiler.compile(write("x"))).toThrow(WebAssembly.CompileError);
    expect(second.counts.built).toBe(0);
  });

  it("hands each use its own copy of a plan", async () => {
    const { compiler } = await startProcess();
    const first = compiler.compile(read(1)) as ReturnType<typeof standInPlan>;
    const second = compiler.compile(read(1)) as ReturnType<typeof standInPlan>;
    second.enums.get("status")!.push("changed by the engine");
    second.args[0] = "99";
    expect(compiler.compile(read(1))).toStrictEqual(standInPlan(read(1)));
    expect(first).toStrictEqual(standInPlan(read(1)));
  });

  it("does not read plans of another schema or Prisma, nor a file it cannot read, and writes a good one", async () => {
    const first = await startProcess();
    first.compiler.compile(read(1));
    first.store.saveQueryPlans();

    const otherSchema = await startProcess("model Run { id Int @id\n name String }");
    otherSchema.compiler.compile(read(1));
    expect(otherSchema.counts.compiled).toBe(2);
    otherSchema.store.saveQueryPlans();
    expect(planFiles()).toHaveLength(2);

    for (const name of planFiles()) writeFileSync(join(folder, name), "not a plan file");
    const damaged = await startProcess();
    damaged.compiler.compile(read(1));
    expect(damaged.counts.compiled).toBe(2);
    damaged.store.saveQueryPlans();

    const repaired = await startProcess();
    repaired.compiler.compile(read(2));
    expect(repaired.counts.compiled).toBe(0);
  });

  it("keeps the most recently used shapes in its file, up to STORED_PLANS", async () => {
    const { store, compiler } = await startProcess();
    const model = (i: number) => `Model${i}`;
    for (let i = 0; i < store.STORED_PLANS; i++) compiler.compile(read(1, model(i)));
    compiler.compile(read(2, model(0))); // its shape used again: now the most recent
    compiler.compile(read(1, model(store.STORED_PLANS))); // one too many: Model1's goes
    store.saveQueryPlans();
    const shapes = storedShapes();
    expect(shapes).toHaveLength(store.STORED_PLANS);
    expect(shapes).not.toContain(shapeOf(read(1, model(1)))!.shape);
    expect(shapes.slice(-2)).toEqual([shapeOf(read(1, model(0)))!.shape, shapeOf(read(1, model(store.STORED_PLANS)))!.shape]);
  });

  it("leaves a client without Prisma's engine configuration as it is, and writes nothing", async () => {
    vi.resetModules();
    const store: Store = await import("@/lib/db/query-plan-store");
    const client = { _engineConfig: {} };
    store.keepQueryPlansIn(client, folder, base64Source);
    expect(client).toEqual({ _engineConfig: {} });
    store.saveQueryPlans();
    expect(planFiles()).toEqual([]);
  });
});
