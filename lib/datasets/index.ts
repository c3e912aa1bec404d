/**
 * Dataset import: JSON (a list, or an object with a `data` list), JSON Lines and CSV files become
 * validated DatasetItems, or a DatasetValidationError naming the file, line and field of every problem.
 */
export type { DatasetFormat, DatasetItem } from "./types";
export { DatasetValidationError, MAX_REPORTED_ISSUES, formatIssue, type DatasetIssue } from "./errors";
export { detectFormat } from "./detect";
export { parseDatasetFile, parseDatasetStream, parseDatasetText, streamDatasetFile, type DatasetSource, type ParseOptions } from "./parse";
export { DatasetItemsHasher, hashDatasetItems } from "./hash";
export { sha256File, sha256Passthrough } from "./file-hash";
export { MAX_FIELD_CHARS, MAX_ID_CHARS, MAX_METADATA_FIELDS, MAX_NESTING_DEPTH, MAX_RECORD_CHARS } from "./limits";
export { shareEventLoop } from "./time-slice";
export { computeDatasetStats, DatasetStatsAccumulator, type DatasetStats, type Distribution } from "./stats";
