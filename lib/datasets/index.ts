export type { DatasetFormat, DatasetItem } from "./types";
export { DatasetValidationError, MAX_REPORTED_ISSUES, formatIssue, type DatasetIssue } from "./errors";
export { detectFormat } from "./detect";
export { parseDatasetFile, parseDatasetStream, parseDatasetText, type DatasetSource, type ParseOptions } from "./parse";
export { hashDatasetItems } from "./hash";
