// The wasm query compilers' bindings and wasm, which Prisma's runtime ships without type declarations; only what
// query-plan-cache.ts and client.ts use of them.
declare module "@prisma/client/runtime/query_compiler_bg.sqlite.mjs" {
  export const QueryCompiler: import("./query-plan-cache").QueryCompilerClass;
}
declare module "@prisma/client/runtime/query_compiler_bg.postgresql.mjs" {
  export const QueryCompiler: import("./query-plan-cache").QueryCompilerClass;
}
declare module "@prisma/client/runtime/query_compiler_bg.sqlite.wasm-base64.mjs" {
  export const wasm: string;
}
declare module "@prisma/client/runtime/query_compiler_bg.postgresql.wasm-base64.mjs" {
  export const wasm: string;
}
