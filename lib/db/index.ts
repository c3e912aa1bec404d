export * from "./client";
export * from "./database-url";
export * from "./datasets";
export * from "./errors";
export * from "./result-writer";
export * from "./results";
export * from "./runs";
export * from "./skills";
