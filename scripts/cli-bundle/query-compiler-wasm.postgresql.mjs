// In the CLI bundle, this module stands in for @prisma/client/runtime/query_compiler_bg.postgresql.wasm-base64.mjs (see
// QUERY_COMPILER_WASM in scripts/cli.mjs): the query compiler's bytes, read from the build's folder.
import { readFileSync } from "node:fs";

const bytes = readFileSync(new URL("./query_compiler_bg.postgresql.wasm", import.meta.url));
// Its ArrayBuffer (readFileSync gives a file of known size one of its own), which the client's
// `Buffer.from(wasm, "base64")` wraps without copying.
export const wasm = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes;
