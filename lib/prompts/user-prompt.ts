import { pyStrip } from "../text/python";
import { truncateContext } from "./truncate-context";

export interface UserPromptInput {
  question: string;
  context: string;
  /** Only with this on is `diagnosticInstruction` shown (the seed's training readout). */
  diagnosticMode?: boolean;
  diagnosticInstruction?: string;
  /** Shown whenever non-blank, whatever `diagnosticMode` says (as in the seed). */
  diagnosticTraceContext?: string;
}

/** The seed's `_build_user`: context (truncated), question, then the optional diagnostic sections. */
export function buildUserPrompt(input: UserPromptInput): string {
  const { question, context, diagnosticMode = false } = input;
  const trace = pyStrip(input.diagnosticTraceContext ?? "");
  const instruction = pyStrip(input.diagnosticInstruction ?? "");
  const parts = [`## Context\n${truncateContext(context)}`, `## Question\n${question}`];
  if (trace) {
    parts.push(
      "## Previous Codex Trace Snapshot\n" +
        "This is a partial transcript from an earlier attempt. Use it as your current reasoning context.\n\n" +
        trace,
    );
  }
  if (diagnosticMode && instruction) parts.push(`## Training Readout\n${instruction}`);
  return parts.join("\n\n");
}

/**
 * Whether buildUserPrompt(input) is the item's context and question alone, with no diagnostic section: then it is
 * buildUserPrompt({ question, context }) of the dataset item, which is how a stored result's prompt is rebuilt when
 * read instead of being stored again (lib/db/result-rows.ts). The same tests as buildUserPrompt's own branches.
 */
export function isPlainUserPrompt(input: UserPromptInput): boolean {
  return !pyStrip(input.diagnosticTraceContext ?? "") && !(input.diagnosticMode && pyStrip(input.diagnosticInstruction ?? ""));
}

/** The seed's follow-up turn (`refinement` in `process_one`), quoting the previous response verbatim. */
export function buildRefinementPrompt(previousResponse: string): string {
  return (
    `Your previous answer was:\n${previousResponse}\n\n` +
    "Review it against the context and question. " +
    "If correct, repeat it. If wrong, provide a corrected answer.\n" +
    "Use <answer>...</answer> tags for your final answer."
  );
}
