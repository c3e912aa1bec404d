/**
 * Golden requests of the optimiser stages. tests/fixtures/golden/optimize-prompts.json is written by
 * tests/optimize/golden/record_prompts.py, which runs upstream SkillOpt's own functions (SearchQA process_one
 * with a scripted target, the analyst, merge, ranking, slow-update and meta-skill calls with a fake optimizer
 * that captures each request). Python floats inside json values are stored as {"$py_float": x}.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PyFloat, type PyJson, pyJsonDumps, pyJsonRepr, pyJsonStr, pyTruthy } from "@/lib/export/python-json";
import { buildAnalystRequest, type AnalystRequestInput } from "@/lib/optimize/prompts/analyst";
import { mergePatches, type MergeCallContext } from "@/lib/optimize/prompts/aggregate";
import {
  buildComparisonPairs,
  type ComparisonItem,
  type ComparisonPair,
  type ComparisonRow,
  formatComparisonText,
} from "@/lib/optimize/prompts/comparison";
import { mergeFallback, normalisePatches } from "@/lib/optimize/prompts/merge-tree";
import { buildMetaSkillRequest, type MetaSkillInput } from "@/lib/optimize/prompts/meta-skill";
import { buildRankingRequest, type RankingInput } from "@/lib/optimize/prompts/ranking";
import { type OptimizerRequest, skillOptTemplate, type SkillOptTemplate } from "@/lib/optimize/prompts/request";
import { buildSlowUpdateRequest, type SlowUpdateInput } from "@/lib/optimize/prompts/slow-update";
import {
  extractFailurePatterns,
  failurePatchPath,
  type FailedRow,
  type FailurePattern,
  formatStepBuffer,
  type StepBufferEntry,
} from "@/lib/optimize/prompts/step-buffer";

interface RecordedCall extends OptimizerRequest {
  reply: string | null;
  parsed?: PyJson;
}

interface Golden {
  templates: Record<SkillOptTemplate, string>;
  values: { value: PyJson; repr: string; str: string; truthy: boolean; dumpsIndent: string }[];
  analyst: { name: string; input: AnalystRequestInput; request: RecordedCall | null }[];
  stepBuffer: {
    patterns: {
      name: string;
      failures: FailedRow[];
      files: { path: string; failureSummary: PyJson; hasSummary: boolean }[];
      patterns: FailurePattern[];
    }[];
    entries: StepBufferEntry[];
    text: string;
    emptyText: string;
  };
  merge: {
    name: string;
    mergeBatchSize: number;
    metaSkill: string;
    skill: string;
    rawFailure: PyJson[];
    rawSuccess: PyJson[];
    normalised: { failure: PyJson[]; success: PyJson[] };
    calls: RecordedCall[];
    merged: PyJson;
  }[];
  mergeOnlySuccess: { merged: PyJson; calls: RecordedCall[]; nonObjectFallbackRaises: string | null };
  ranking: { name: string; input: RankingInput; request: RecordedCall | null }[];
  comparison: {
    items: ComparisonItem[];
    prevRows: (ComparisonRow & { id: string })[];
    currRows: (ComparisonRow & { id: string })[];
    pairs: ComparisonPair[];
    text: string;
    emptyText: string;
  };
  slowUpdate: { name: string; input: SlowUpdateInput; request: RecordedCall }[];
  metaSkill: { name: string; input: MetaSkillInput; request: RecordedCall }[];
}

const golden = JSON.parse(
  readFileSync(new URL("../fixtures/golden/optimize-prompts.json", import.meta.url), "utf8"),
  (_key, value: unknown) => {
    if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && "$py_float" in value) {
      const raw = (value as { $py_float: number | string }).$py_float;
      return new PyFloat(Number(raw));
    }
    return value;
  },
) as Golden;

/** The request as upstream's fake optimizer saw it (without the canned reply). */
function sent(call: RecordedCall | null): OptimizerRequest | null {
  if (!call) return null;
  return { stage: call.stage, messages: call.messages, maxCompletionTokens: call.maxCompletionTokens };
}

/** Compare as Python would see it: floats and ints kept apart through their repr. */
function pyView(value: PyJson): string {
  return pyJsonDumps(value, { indent: 1 });
}

describe("optimiser templates", () => {
  it.each(Object.keys(golden.templates) as SkillOptTemplate[])("prompts/skillopt/%s.md is upstream's file", (name) => {
    expect(skillOptTemplate(name)).toBe(golden.templates[name]);
  });
});

describe("Python views of json values", () => {
  it.each(golden.values.map((c, i) => ({ ...c, i })))("value $i: repr $repr", (c) => {
    expect(pyJsonRepr(c.value)).toBe(c.repr);
    expect(pyJsonStr(c.value)).toBe(c.str);
    expect(pyTruthy(c.value)).toBe(c.truthy);
    expect(pyJsonDumps(c.value, { indent: 2 })).toBe(c.dumpsIndent);
  });
});

describe("analyst requests", () => {
  it.each(golden.analyst)("$name", (c) => {
    expect(buildAnalystRequest(c.input)).toEqual(sent(c.request));
  });

  it("covers a call with the step buffer and the meta skill, and one that upstream skips", () => {
    expect(golden.analyst.some((c) => c.input.stepBuffer.trim() && c.input.metaSkill.trim() && c.request)).toBe(true);
    expect(golden.analyst.some((c) => c.request === null)).toBe(true);
  });
});

describe("step buffer", () => {
  it.each(golden.stepBuffer.patterns)("failure patterns: $name", (c) => {
    const files = [...c.files].sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(files.map((f) => f.path)).toEqual(c.files.map((f) => f.path));
    const summaries = c.files.map((f) => (f.hasSummary ? f.failureSummary : undefined));
    const patterns = extractFailurePatterns(c.failures, summaries);
    expect(patterns.map((p) => ({ ...p, pattern: pyView(p.pattern) }))).toEqual(
      c.patterns.map((p) => ({ ...p, pattern: pyView(p.pattern) })),
    );
  });

  it("patch files sort as upstream's glob does", () => {
    expect(failurePatchPath(1, 0, 7)).toBe("patches/minibatch_fail_007.json");
    const paths = [0, 2, 10].map((batch) => failurePatchPath(3, batch, 0));
    expect([...paths].sort()).toEqual([
      "batch_0/patches/minibatch_fail_000.json",
      "batch_10/patches/minibatch_fail_000.json",
      "batch_2/patches/minibatch_fail_000.json",
    ]);
  });

  it("formats accepted and rejected steps", () => {
    expect(formatStepBuffer(golden.stepBuffer.entries)).toBe(golden.stepBuffer.text);
    expect(formatStepBuffer([])).toBe(golden.stepBuffer.emptyText);
  });
});

describe("merge requests", () => {
  it.each(golden.merge)("normalised patches: $name", (c) => {
    const { failure, success } = normalisePatches(c.rawFailure);
    expect(failure.map(pyView)).toEqual(c.normalised.failure.map(pyView));
    expect(success).toEqual([]);
    expect(normalisePatches(c.rawSuccess).success.map(pyView)).toEqual(c.normalised.success.map(pyView));
  });

  it.each(golden.merge)("every level, then the final merge: $name", async (c) => {
    const calls: { request: OptimizerRequest; context: MergeCallContext }[] = [];
    const merged = await mergePatches(
      c.normalised.failure,
      c.normalised.success,
      { skill: c.skill, mergeBatchSize: c.mergeBatchSize, metaSkill: c.metaSkill },
      (request, context) => {
        const recorded = c.calls[calls.length];
        calls.push({ request, context });
        return Promise.resolve(recorded?.parsed ?? undefined);
      },
    );
    expect(calls.map((call) => call.request)).toEqual(c.calls.map(sent));
    expect(pyView(merged)).toBe(pyView(c.merged));
  });

  it("the scenarios reach level 3, a fallback and a final merge", () => {
    const users = golden.merge.flatMap((c) => c.calls.map((call) => call.messages[1].content));
    expect(users.some((u) => u.includes("merge level 3)"))).toBe(true);
    expect(users.some((u) => u.includes('"reasoning": "fallback concatenation"'))).toBe(true);
    expect(users.some((u) => u.includes("## Two pre-merged patch groups to combine"))).toBe(true);
  });

  it("no failure edits: the success tree's result, no call", async () => {
    const success = normalisePatches(golden.merge[0]?.rawSuccess.slice(0, 1) ?? []).success;
    const calls: OptimizerRequest[] = [];
    const merged = await mergePatches([], success, { skill: "", mergeBatchSize: 8, metaSkill: "" }, (request) => {
      calls.push(request);
      return Promise.resolve(undefined);
    });
    expect(calls).toEqual(golden.mergeOnlySuccess.calls);
    expect(pyView(merged)).toBe(pyView(golden.mergeOnlySuccess.merged));
  });

  it("a fallback over a non-object edit fails, as upstream's does", () => {
    expect(golden.mergeOnlySuccess.nonObjectFallbackRaises).toBe("AttributeError");
    expect(() => mergeFallback([{ edits: ["not a dict"] }, { edits: [] }], 1)).toThrow(TypeError);
  });
});

describe("ranking requests", () => {
  it.each(golden.ranking)("$name", (c) => {
    expect(buildRankingRequest(c.input)).toEqual(sent(c.request));
  });
});

describe("slow update and meta skill", () => {
  const { comparison } = golden;
  const byId = (rows: (ComparisonRow & { id: string })[]) => new Map(rows.map((row) => [row.id, row]));

  it("comparison pairs and text", () => {
    const pairs = buildComparisonPairs(comparison.items, byId(comparison.prevRows), byId(comparison.currRows));
    expect(pairs).toEqual(comparison.pairs);
    expect(new Set(pairs.map((p) => p.category))).toEqual(
      new Set(["improved", "regressed", "persistent_fail", "stable_success"]),
    );
    expect(formatComparisonText(pairs)).toBe(comparison.text);
    expect(formatComparisonText([])).toBe(comparison.emptyText);
  });

  it.each(golden.slowUpdate)("slow update: $name", (c) => {
    expect(buildSlowUpdateRequest(c.input)).toEqual(sent(c.request));
  });

  it.each(golden.metaSkill)("meta skill: $name", (c) => {
    expect(buildMetaSkillRequest(c.input)).toEqual(sent(c.request));
  });
});
