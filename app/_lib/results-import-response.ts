/** What POST /api/runs/import answers; the Import results form reads it (a type only, shared by the two). */
import type { ErrorBody } from "./http";

export type ResultsImportResponse =
  | { runId: number; datasetId: number; datasetCreated: boolean; items: number; duplicatesDropped: number }
  | (ErrorBody & { issues?: { line?: number; field?: string; message: string }[]; omittedIssueCount?: number });
