import { normalizeAnswer } from "../eval/normalize";
import { splitPassages, type Passage } from "./passages";

/** A section of the user prompt after the question (diagnostic trace, training readout). */
export interface PromptSection {
  heading: string;
  body: string;
}

export interface ParsedUserPrompt {
  /** The context as sent (truncated as the model saw it). */
  context: string;
  /** Its `[DOC] [TLE] title [PAR] text` passages; empty when the context is not in that form. */
  passages: Passage[];
  question: string;
  /** Sections after the question, in order. */
  extra: PromptSection[];
}

const TRACE_HEADING = "Previous Codex Trace Snapshot";
const READOUT_HEADING = "Training Readout";

/**
 * Reads back a user prompt built by `buildUserPrompt` (`## Context`, `## Question`, then optional sections), for the
 * item view. The question is known (it is stored with the result), which finds the boundary even when the context
 * itself contains a "## Question" line. Returns null for any other layout, which is then shown as it is.
 */
export function parseUserPrompt(prompt: string, question: string): ParsedUserPrompt | null {
  const head = "## Context\n";
  if (!prompt.startsWith(head)) return null;
  const marker = `\n\n## Question\n${question}`;
  for (let at = prompt.indexOf(marker, head.length); at >= 0; at = prompt.indexOf(marker, at + 1)) {
    const rest = prompt.slice(at + marker.length);
    const extra = parseExtraSections(rest);
    if (!extra) continue;
    const context = prompt.slice(head.length, at);
    return { context, passages: /\[(DOC|TLE|PAR)\]/.test(context) ? splitPassages(context) : [], question, extra };
  }
  return null;
}

function parseExtraSections(rest: string): PromptSection[] | null {
  if (rest === "") return [];
  const trace = `\n\n## ${TRACE_HEADING}\n`;
  const readout = `\n\n## ${READOUT_HEADING}\n`;
  const sections: PromptSection[] = [];
  let body = rest;
  if (body.startsWith(trace)) {
    // The readout is added last; the trace (dataset text) could contain the heading, so split at its last place.
    const end = body.lastIndexOf(readout);
    const cut = end > 0 ? end : body.length;
    sections.push({ heading: TRACE_HEADING, body: body.slice(trace.length, cut) });
    body = body.slice(cut);
  }
  if (body.startsWith(readout)) {
    sections.push({ heading: READOUT_HEADING, body: body.slice(readout.length) });
    body = "";
  }
  return body === "" ? sections : null;
}

/**
 * The gold answers each passage contains: normalised as the scorer normalises, and matched on whole tokens (so the
 * gold "1" is not found inside "1990", nor "art" inside "start").
 */
export function goldsInPassage(passage: Passage, golds: readonly string[]): string[] {
  const text = ` ${normalizeAnswer(`${passage.title} ${passage.text}`)} `;
  return golds.filter((gold) => {
    const normalized = normalizeAnswer(gold);
    return normalized !== "" && text.includes(` ${normalized} `);
  });
}
