// Prisma's plans of reads kept in a folder between processes, its query compiler built only when a query is not among
// them: here with a stand-in for the compiler's wasm module, loaded as Prisma's engine loads it; the CLI's own use
// (the real compiler, one process after another) is in tests/cli/launcher.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deserialize } from "node:v8";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Store = typeof import("@/lib/db/query-plan-store");

const read = (id: number) => `{"modelName":"Run","action":"findUnique","query":{"arguments":{"where":{"id":${id}}}}}`;
const write = `{"modelName":"Skill","action":"createOne","query":{"arguments":{"data":{"name":"x"}}}}`;

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
      return { request, serial: counts.compiled, enums: new Map([["status", [1n, "done"]]]), at: new Date(0) };
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
const storedRequests = () =>
  (deserialize(readFileSync(join(folder, planFiles()[0]!))) as { plans: [string, unknown][] }).plans.map(([request]) => request);

describe("keepQueryPlansIn", () => {
  it("answers the reads an earlier process compiled from its file, with no compiler built", async () => {
    const first = await startProcess();
    expect(first.counts.built).toBe(0);
    const plan = first.compiler.compile(read(1));
    expect(first.counts).toMatchObject({ built: 1, compiled: 1, linked: 1 });
    first.store.saveQueryPlans();
    expect(planFiles()).toHaveLength(1);

    const second = await startProcess();
    expect(second.compiler.compile(read(1))).toStrictEqual(plan);
    expect(second.counts).toMatchObject({ built: 0, compiled: 0, linked: 0 });
  });

  it("builds the compiler once, at the first query it must compile, and compiles writes and batches every time", async () => {
    // The wasm as the CLI bundle's stand-in gives it: its bytes' ArrayBuffer.
    const { store, counts, compiler } = await startProcess(undefined, async () => ({ wasm: START_ONLY_MODULE.slice().buffer }));
    compiler.compile(write);
    compiler.compile(write);
    compiler.compileBatch(`{"batch":[${read(1)}]}`);
    compiler.compile(read(2));
    compiler.compile(read(2));
    expect(counts).toMatchObject({ built: 1, compiled: 4, linked: 1 });
    compiler.free();
    expect(counts.freed).toBe(1);
    store.saveQueryPlans();
    expect(storedRequests()).toEqual([read(2)]);
  });

  it("compiles the wasm only when a compiler is first built", async () => {
    const first = await startProcess();
    first.compiler.compile(read(1));
    first.store.saveQueryPlans();

    // Bytes that are not wasm at all: connecting and the kept read need none of them; the first compilation does.
    const second = await startProcess(undefined, async () => ({ wasm: Buffer.from("not wasm").toString("base64") }));
    expect(second.compiler.compile(read(1))).toMatchObject({ request: read(1) });
    expect(() => second.compiler.compile(write)).toThrow(WebAssembly.CompileError);
    expect(second.counts.built).toBe(0);
  });

  it("hands each use its own copy of a kept plan", async () => {
    const { compiler } = await startProcess();
    const first = compiler.compile(read(1)) as { enums: Map<string, unknown[]>; serial: number };
    first.enums.get("status")!.push("changed by the engine");
    first.serial = 99;
    expect(compiler.compile(read(1))).toStrictEqual({ request: read(1), serial: 1, enums: new Map([["status", [1n, "done"]]]), at: new Date(0) });
  });

  it("does not read plans of another schema or Prisma, nor a file it cannot read, and writes a good one", async () => {
    const first = await startProcess();
    first.compiler.compile(read(1));
    first.store.saveQueryPlans();

    const otherSchema = await startProcess("model Run { id Int @id\n name String }");
    otherSchema.compiler.compile(read(1));
    expect(otherSchema.counts.compiled).toBe(1);
    otherSchema.store.saveQueryPlans();
    expect(planFiles()).toHaveLength(2);

    for (const name of planFiles()) writeFileSync(join(folder, name), "not a plan file");
    const damaged = await startProcess();
    damaged.compiler.compile(read(1));
    expect(damaged.counts.compiled).toBe(1);
    damaged.store.saveQueryPlans();

    const repaired = await startProcess();
    repaired.compiler.compile(read(1));
    expect(repaired.counts.compiled).toBe(0);
  });

  it("keeps the most recently used plans in its file, up to STORED_PLANS", async () => {
    const { store, compiler } = await startProcess();
    for (let id = 0; id < store.STORED_PLANS; id++) compiler.compile(read(id));
    compiler.compile(read(0)); // used again: now the most recent
    compiler.compile(read(store.STORED_PLANS)); // one too many: read(1) goes
    store.saveQueryPlans();
    const requests = storedRequests();
    expect(requests).toHaveLength(store.STORED_PLANS);
    expect(requests).not.toContain(read(1));
    expect(requests.slice(-2)).toEqual([read(0), read(store.STORED_PLANS)]);
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
