/**
 * The learning-rate (edit budget) schedule, ported from skillopt/optimizer/scheduler.py.
 *
 * The "learning rate" is the most edits a step may apply. Modes: constant, linear and cosine decay from
 * `learning_rate` to `min_learning_rate` over the run's total steps, and autonomous (no limit: 999). That last
 * one is only the scheduler mode; the optimizer-decided learning rate (`lr_control_mode: autonomous`) is a
 * different feature, refused by the settings.
 *
 * Quirks copied from upstream, not fixed:
 * - Python's `round` rounds half to even (2.5 → 2, 3.5 → 4).
 * - The first call of `step()` already evaluates t = 1/total_steps: the budget never equals `learning_rate` on a
 *   decaying multi-step run, and the last step gets `min_learning_rate`.
 * - The trainer calls `step()` only on steps that reach selection (a step without usable patches skips it), so
 *   the schedule falls behind the global step; on resume upstream resets the counter to the last completed
 *   global step (`load_state_dict({"current_step": last_step})`), which can jump it forward.
 */

export const SCHEDULER_MODES = ["constant", "linear", "cosine", "autonomous"] as const;
export type SchedulerMode = (typeof SCHEDULER_MODES)[number];

/** AutonomousScheduler.NO_LIMIT. */
export const NO_EDIT_LIMIT = 999;

export interface ScheduleSettings {
  mode: SchedulerMode;
  maxLr: number;
  minLr: number;
  totalSteps: number;
}

/** Python 3 `round(x)` for a float: to the nearest integer, exact halves to the even one. */
export function pyRound(x: number): number {
  const floor = Math.floor(x);
  const fraction = x - floor; // exact for doubles
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The edit budget of the given 1-based scheduler step (`_compute_lr`). */
export function editBudgetAt(settings: ScheduleSettings, step: number): number {
  const { mode, maxLr, minLr, totalSteps } = settings;
  switch (mode) {
    case "constant":
      return maxLr;
    case "autonomous":
      return NO_EDIT_LIMIT;
    case "linear":
    case "cosine": {
      if (totalSteps <= 1) return maxLr;
      const t = Math.min(step, totalSteps) / totalSteps;
      const lr =
        mode === "linear"
          ? maxLr + (minLr - maxLr) * t
          : minLr + 0.5 * (maxLr - minLr) * (1 + Math.cos(Math.PI * t));
      return Math.max(minLr, pyRound(lr));
    }
  }
}

/** `build_scheduler`'s check: an unknown mode is refused with upstream's message. */
export function parseSchedulerMode(mode: string): SchedulerMode {
  if ((SCHEDULER_MODES as readonly string[]).includes(mode)) return mode as SchedulerMode;
  const available = `[${SCHEDULER_MODES.map((name) => `'${name}'`).join(", ")}]`;
  throw new RangeError(`Unknown scheduler mode '${mode}'. Available: ${available}`);
}

/** `LRScheduler`: the stateful counter the trainer advances once per step that reaches selection. */
export class EditBudgetScheduler {
  private currentStep = 0;

  constructor(readonly settings: ScheduleSettings) {}

  /** Advance one step and return its edit budget. */
  step(): number {
    this.currentStep += 1;
    return editBudgetAt(this.settings, this.currentStep);
  }

  stateDict(): { current_step: number } {
    return { current_step: this.currentStep };
  }

  loadStateDict(state: { current_step?: number }): void {
    this.currentStep = state.current_step ?? 0;
  }
}
