// In the CLI bundle, this module stands in for @prisma/client/runtime/query_compiler_bg.sqlite.wasm-base64.mjs (see
// QUERY_COMPILER_WASM in scripts/cli.mjs): the query compiler's bytes, read from the build's folder.
import { readFileSync } from "node:fs";

export const wasm = readFileSync(new URL("./query_compiler_bg.sqlite.wasm", import.meta.url));
