export * from "./config";
export * from "./create";
export * from "./execute";
