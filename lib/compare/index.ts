export * from "./breakdown";
export * from "./pair-scores";
export * from "./query";
export * from "./skill-diff";
export * from "./summary";
export * from "./types";
export * from "./csv";
export * from "./difference-cache";
