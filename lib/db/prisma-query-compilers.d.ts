// The wasm query compilers' bindings, which Prisma's runtime ships without type declarations; only what
// query-plan-cache.ts uses of them.
declare module "@prisma/client/runtime/query_compiler_bg.sqlite.mjs" {
  export const QueryCompiler: import("./query-plan-cache").QueryCompilerClass;
}
declare module "@prisma/client/runtime/query_compiler_bg.postgresql.mjs" {
  export const QueryCompiler: import("./query-plan-cache").QueryCompilerClass;
}
