/** The shared vocabulary of a run: result and status types, the run configuration, the item explorer's query model. */
export * from "./types";
export * from "./run-config";
export * from "./item-query";
export * from "./metrics";
export * from "./live-stats";
