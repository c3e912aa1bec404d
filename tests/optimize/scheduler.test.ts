/**
 * The edit-budget schedule against upstream's build_scheduler (record_core.py "schedule"): every mode over a
 * grid of budgets and run lengths, stepping past the end, plus Python's round on the values that decide it.
 */
import { describe, expect, it } from "vitest";
import {
  EditBudgetScheduler,
  editBudgetAt,
  parseSchedulerMode,
  pyRound,
  type SchedulerMode,
} from "@/lib/optimize/scheduler";
import { goldenSection } from "./golden";

interface ScheduleGolden {
  cases: {
    mode: SchedulerMode;
    max_lr: number;
    min_lr: number;
    total_steps: number;
    steps: number[];
    get_lr_0: number;
    state: { current_step: number };
  }[];
  round: { x: string; round: number }[];
  unknown_mode: { error: string };
}

const golden = goldenSection<ScheduleGolden>("schedule");

describe("edit budget schedule matches upstream", () => {
  it("rounds as Python's round does (halves to even)", () => {
    expect(golden.round.map(({ x }) => ({ x, round: pyRound(Number(x)) }))).toEqual(golden.round);
    expect(pyRound(2.5)).toBe(2);
    expect(pyRound(3.5)).toBe(4);
  });

  it("gives every step the budget upstream's scheduler gives it", () => {
    expect(golden.cases.length).toBeGreaterThan(1200);
    const actual = golden.cases.map((c) => {
      const scheduler = new EditBudgetScheduler({ mode: c.mode, maxLr: c.max_lr, minLr: c.min_lr, totalSteps: c.total_steps });
      const steps = c.steps.map(() => scheduler.step());
      return { ...c, steps, get_lr_0: editBudgetAt(scheduler.settings, 0), state: scheduler.stateDict() };
    });
    expect(actual).toEqual(golden.cases);
  });

  it("seed defaults (cosine 4 → 2 over 40 steps) hold the budget at 4 for 13 steps, then 3, then 2", () => {
    const scheduler = new EditBudgetScheduler({ mode: "cosine", maxLr: 4, minLr: 2, totalSteps: 40 });
    const budgets = Array.from({ length: 40 }, () => scheduler.step());
    expect(budgets.indexOf(3)).toBe(13);
    expect(budgets.indexOf(2)).toBe(26);
  });

  it("resumes from a saved counter", () => {
    const scheduler = new EditBudgetScheduler({ mode: "linear", maxLr: 8, minLr: 2, totalSteps: 8 });
    scheduler.loadStateDict({ current_step: 5 });
    expect(scheduler.step()).toBe(editBudgetAt(scheduler.settings, 6));
    scheduler.loadStateDict({});
    expect(scheduler.stateDict()).toEqual({ current_step: 0 });
  });

  it("refuses an unknown mode with upstream's message", () => {
    expect(() => parseSchedulerMode("warmup")).toThrow(golden.unknown_mode.error.replace(/^ValueError: /, ""));
    expect(parseSchedulerMode("cosine")).toBe("cosine");
  });
});
