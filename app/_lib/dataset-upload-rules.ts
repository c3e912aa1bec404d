/**
 * What a dataset upload may be, shared by the upload form (to refuse a file before sending it) and
 * POST /api/datasets (which decides). Pure: imported by a client component.
 */
import type { ErrorBody } from "./http";
import { formatBytes } from "@/app/_lib/format";
import { extensionOf } from "@/app/_lib/file-name";

/**
 * Larger than any QA set we expect (SearchQA's 140k items are ~700 MB only with full snippets); the
 * parsed items are held in memory until they are stored, so the limit also bounds the server's memory.
 */
export const MAX_DATASET_BYTES = 200 * 1024 * 1024;
export const DATASET_EXTENSIONS = [".json", ".jsonl", ".ndjson", ".csv"] as const;
export const MAX_DATASET_NAME_LENGTH = 200;

export function datasetFileNameProblem(fileName: string): string | undefined {
  if ((DATASET_EXTENSIONS as readonly string[]).includes(extensionOf(fileName))) return undefined;
  return `${fileName || "The file"} is not a dataset file: the name must end in .json, .jsonl, .ndjson or .csv.`;
}

export function datasetSizeProblem(bytes: number): string | undefined {
  if (bytes <= MAX_DATASET_BYTES) return undefined;
  return `The file is ${formatBytes(bytes)}; uploads can be at most ${formatBytes(MAX_DATASET_BYTES)}.`;
}

/** One problem in a rejected upload, as POST /api/datasets reports it. */
export interface UploadIssue {
  line?: number;
  item?: number;
  field?: string;
  message: string;
}

/**
 * The JSON bodies of POST /api/datasets. A failure is the error body of every route, plus the problems of the file
 * by line (or of the query by field, in both `fields` and `issues`).
 */
export type DatasetUploadResponse =
  | { id: number; name: string; itemCount: number; duplicateOfId: number | null }
  | (ErrorBody & { file?: string; issues?: UploadIssue[]; omittedIssueCount?: number });
