/**
 * Ranking and the edit budget against upstream's rank_and_select with a scripted optimizer (record_core.py
 * "ranking"): each patch × budget × reply (valid, junk indices, booleans, wrong shapes, no JSON, a failed call),
 * comparing whether the optimizer is asked, whether the patch comes back untouched, and the result as
 * json.dumps text; non-string reasoning is where upstream crashes.
 */
import { describe, expect, it } from "vitest";
import { pyJsonDumps } from "@/lib/export/python-json";
import { pyJsonLoads } from "@/lib/optimize/py-json";
import { UpstreamCrashError } from "@/lib/optimize/py-values";
import { needsRanking, rankAndSelect } from "@/lib/optimize/ranking";
import { goldenSection } from "./golden";

interface RankingCase {
  patch: number;
  max_edits: number;
  reply: number;
  called: boolean;
  unchanged?: boolean;
  result?: string;
  crash?: string;
}
interface RankingGolden {
  patches: string[];
  replies: (string | null)[];
  cases: RankingCase[];
}

const golden = goldenSection<RankingGolden>("ranking");

function replay(c: RankingCase): RankingCase {
  const patch = pyJsonLoads(golden.patches[c.patch]!);
  const reply = golden.replies[c.reply] ?? undefined;
  const called = needsRanking(patch, c.max_edits);
  try {
    const result = rankAndSelect(patch, c.max_edits, reply);
    return { patch: c.patch, max_edits: c.max_edits, reply: c.reply, called, unchanged: result === patch, result: pyJsonDumps(result) };
  } catch (error) {
    if (!(error instanceof UpstreamCrashError)) throw error;
    return { patch: c.patch, max_edits: c.max_edits, reply: c.reply, called, crash: error.pythonError };
  }
}

describe("rankAndSelect matches upstream's rank_and_select", () => {
  it("covers ranked, fallback, untouched and crashing outcomes", () => {
    expect(golden.cases.some((c) => c.result?.includes("optimizer-ranked"))).toBe(true);
    expect(golden.cases.some((c) => c.result?.includes("fallback truncated"))).toBe(true);
    expect(golden.cases.some((c) => c.unchanged)).toBe(true);
    expect(golden.cases.some((c) => c.crash)).toBe(true);
  });

  golden.patches.forEach((patchText, patchIndex) => {
    it(`patch ${patchIndex}: ${patchText.slice(0, 60)}`, () => {
      const cases = golden.cases.filter((c) => c.patch === patchIndex);
      expect(cases.map(replay)).toEqual(cases);
    });
  });

  it("keeps in-range int indices in reply order, booleans as 0/1, and drops the rest", () => {
    const patch = pyJsonLoads('{"reasoning": "m", "edits": ["e0", "e1", "e2", "e3", "e4"]}');
    const result = rankAndSelect(patch, 3, '{"selected_indices": [4, "2", -1, 2.0, true, 1, 3]}') as { edits: string[] };
    expect(result.edits).toEqual(["e4", "e1", "e3"]);
  });
});
