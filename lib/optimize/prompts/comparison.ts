/**
 * The longitudinal comparison the slow-update and meta-skill requests carry. Ports of
 * `build_comparison_pairs`, `_read_trajectory` and `format_comparison_text` (skillopt/optimizer/slow_update.py).
 */
import type { ConversationEntry } from "../../runs/types";
import { pyFormatFixed } from "../../text/python";
import { renderConversation } from "./trajectory";

/** A rollout row of one of the two skills on a sampled item. */
export interface ComparisonRow {
  hard: number;
  soft: number;
  predictedAnswer: string;
  failReason: string;
  /** The saved conversation.json, null when upstream wrote none (error and timeout rows). */
  conversation: readonly ConversationEntry[] | null;
}

export interface ComparisonItem {
  id: string;
  question: string;
}

export type ComparisonCategory = "improved" | "regressed" | "persistent_fail" | "stable_success";

interface PairSide {
  hard: 0 | 1;
  soft: number;
  predictedAnswer: string;
  failReason: string;
}

export interface ComparisonPair {
  id: string;
  task: string;
  category: ComparisonCategory;
  prev: PairSide;
  curr: PairSide;
  /** "" when not shown: upstream's comparison_pairs.json, reloaded on resume, has no trajectories. */
  prevTrajectory: string;
  currTrajectory: string;
}

/** `_read_trajectory` for a row of the SearchQA rollout (no row at all: no file either). */
function readTrajectory(row: ComparisonRow | undefined): string {
  if (!row?.conversation) return "(trajectory not available)";
  if (row.conversation.length === 0) return "(empty trajectory)";
  return renderConversation(row.conversation);
}

function side(row: ComparisonRow | undefined): PairSide {
  // A missing row is upstream's `{}`: hard 0, soft 0.0, answer "N/A".
  if (!row) return { hard: 0, soft: 0, predictedAnswer: "N/A", failReason: "" };
  return { hard: row.hard ? 1 : 0, soft: row.soft, predictedAnswer: row.predictedAnswer, failReason: row.failReason };
}

/** `build_comparison_pairs`, one pair per sampled item in sample order; rows are looked up by item id. */
export function buildComparisonPairs(
  items: readonly ComparisonItem[],
  prevRows: ReadonlyMap<string, ComparisonRow>,
  currRows: ReadonlyMap<string, ComparisonRow>,
): ComparisonPair[] {
  return items.map((item) => {
    const prevRow = prevRows.get(item.id);
    const currRow = currRows.get(item.id);
    const prev = side(prevRow);
    const curr = side(currRow);
    const category: ComparisonCategory =
      !prev.hard && curr.hard ? "improved" : prev.hard && !curr.hard ? "regressed" : !prev.hard ? "persistent_fail" : "stable_success";
    return {
      id: item.id,
      task: item.question,
      category,
      prev,
      curr,
      prevTrajectory: readTrajectory(prevRow),
      currTrajectory: readTrajectory(currRow),
    };
  });
}

const SECTIONS: readonly [ComparisonCategory, string, boolean][] = [
  ["regressed", "Regressions (right→wrong) — HIGHEST PRIORITY", true],
  ["persistent_fail", "Persistent Failures (wrong→wrong)", true],
  ["improved", "Improvements (wrong→right)", true],
  ["stable_success", "Stable Successes (right→right)", false],
];

function pairLines(e: ComparisonPair, showTrajectories: boolean): string[] {
  const { prev, curr } = e;
  const lines = [
    `\n#### Task ${e.id}: ${e.task}\n` +
      `- Prev epoch: ${prev.hard ? "PASS" : "FAIL"} (soft=${pyFormatFixed(prev.soft, 2)}) — answer: ${prev.predictedAnswer}\n` +
      `- Curr epoch: ${curr.hard ? "PASS" : "FAIL"} (soft=${pyFormatFixed(curr.soft, 2)}) — answer: ${curr.predictedAnswer}`,
  ];
  if (curr.failReason) lines.push(`- Curr fail reason: ${curr.failReason}`);
  if (prev.failReason && !prev.hard) lines.push(`- Prev fail reason: ${prev.failReason}`);
  if (showTrajectories) {
    if (e.prevTrajectory) lines.push(`\n**Previous epoch trajectory:**\n\`\`\`\n${e.prevTrajectory}\n\`\`\``);
    if (e.currTrajectory) lines.push(`\n**Current epoch trajectory:**\n\`\`\`\n${e.currTrajectory}\n\`\`\``);
  }
  return lines;
}

/** `format_comparison_text`: the counts, then regressions, persistent failures, improvements, stable successes. */
export function formatComparisonText(pairs: readonly ComparisonPair[]): string {
  const byCategory = (category: ComparisonCategory) => pairs.filter((p) => p.category === category);
  const parts = [
    `## Longitudinal Comparison Summary\n` +
      `Total samples: ${pairs.length}\n` +
      `- Improved (wrong→right): ${byCategory("improved").length}\n` +
      `- Regressed (right→wrong): ${byCategory("regressed").length}\n` +
      `- Persistent failures (wrong→wrong): ${byCategory("persistent_fail").length}\n` +
      `- Stable successes (right→right): ${byCategory("stable_success").length}\n`,
  ];
  for (const [category, label, showTrajectories] of SECTIONS) {
    const entries = byCategory(category);
    if (entries.length === 0) {
      parts.push(`### ${label}\n(none)\n`);
      continue;
    }
    parts.push([`### ${label}`, ...entries.flatMap((e) => pairLines(e, showTrajectories))].join("\n"));
  }
  return parts.join("\n\n");
}
