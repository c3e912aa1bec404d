/** One question-answering item, as every part of Skillboard sees it. */
export interface DatasetItem {
  id: string;
  question: string;
  /** May be empty. */
  context: string;
  /** Non-empty list of acceptable answers. */
  answers: string[];
  /** Optional per-item trace for the seed's diagnostic mode ("## Previous Codex Trace Snapshot"). */
  diagnosticTraceContext?: string;
  /** Any other fields of the source record (category, …), kept for breakdowns. */
  metadata?: Record<string, unknown>;
}

export type DatasetFormat = "json" | "jsonl" | "csv";
