/**
 * Edit application against upstream's apply_patch_with_report (record_core.py "edits"): every patch of the
 * corpus on every skill (missing targets, protected regions in every arrangement, repeated lines, empty and
 * blank skills, Unicode, CRLF, wrongly typed fields), comparing the new skill and the report as
 * json.dumps(reports) text; then the patches upstream crashes on.
 */
import { describe, expect, it } from "vitest";
import { pyJsonDumps } from "@/lib/export/python-json";
import { applyPatchWithReport } from "@/lib/optimize/edits";
import { pyJsonLoads } from "@/lib/optimize/py-json";
import { UpstreamCrashError } from "@/lib/optimize/py-values";
import { goldenSection } from "./golden";

interface EditsGolden {
  skills: Record<string, string>;
  patches: string[];
  cases: { skill: string; patch: number; new_skill: string; reports: string }[];
  crashes: { patch: string; crash: string }[];
}

const golden = goldenSection<EditsGolden>("edits");

describe("applyPatchWithReport matches upstream", () => {
  it("covers every op and status upstream reports", () => {
    expect(golden.cases.length).toBeGreaterThan(300);
    const statuses = new Set(golden.cases.flatMap((c) => (JSON.parse(c.reports) as { status: string }[]).map((r) => r.status)));
    expect(statuses.size).toBe(14); // 13 outcomes + "error"
  });

  for (const name of Object.keys(golden.skills)) {
    it(`gives the same skill and report on the "${name}" skill`, () => {
      const cases = golden.cases.filter((c) => c.skill === name);
      const actual = cases.map((c) => {
        const { skill, reports } = applyPatchWithReport(golden.skills[name]!, pyJsonLoads(golden.patches[c.patch]!));
        return { skill: name, patch: c.patch, new_skill: skill, reports: pyJsonDumps(reports) };
      });
      expect(actual).toEqual(cases);
    });
  }

  it("reports the patches upstream crashes on as an upstream crash", () => {
    for (const { patch, crash } of golden.crashes) {
      let thrown: unknown;
      try {
        applyPatchWithReport(golden.skills.basic!, pyJsonLoads(patch));
      } catch (error) {
        thrown = error;
      }
      expect(thrown, patch).toBeInstanceOf(UpstreamCrashError);
      expect((thrown as UpstreamCrashError).pythonError).toBe(crash);
    }
  });
});
