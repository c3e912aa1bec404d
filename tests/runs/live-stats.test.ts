// The run page's derived numbers: rate and ETA from the current execution, elapsed time over resumes,
// and nothing nonsensical for a run that has just started, was resumed, finished, or has no items.
import { describe, expect, it } from "vitest";
import { computeLiveStats, type LiveStatsInput } from "@/lib/runs/live-stats";

const T0 = new Date("2026-03-01T10:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function run(overrides: Partial<LiveStatsInput> = {}): LiveStatsInput {
  return {
    status: "running", workerId: "host:1:abc", nDone: 0, itemsTotal: 100, emSum: 0, f1Sum: 0, subEmSum: 0, nAgentOk: 0,
    nErrors: 0, nTimeouts: 0, promptTokens: 0, completionTokens: 0, inFlight: 0, retryingNow: 0, rateLimitedNow: 0,
    resumedAt: T0, resumedDone: 0, activeMs: 0,
    ...overrides,
  };
}

describe("computeLiveStats", () => {
  it("measures the rate and the ETA of a running run", () => {
    const stats = computeLiveStats(
      run({ nDone: 30, emSum: 20, f1Sum: 24, subEmSum: 22, nAgentOk: 27, nErrors: 2, nTimeouts: 1, promptTokens: 2400, completionTokens: 600, inFlight: 8, retryingNow: 2, rateLimitedNow: 1 }),
      at(60),
    );
    expect(stats).toMatchObject({ done: 30, total: 100, fraction: 0.3, correct: 20, wrong: 7, errors: 2, timeouts: 1 });
    expect(stats).toMatchObject({ inFlight: 8, retrying: 2, rateLimited: 1, elapsedSeconds: 60 });
    expect(stats.itemsPerMinute).toBeCloseTo(30);
    expect(stats.etaSeconds).toBeCloseTo(140); // 70 items left at 0.5 per second
    expect(stats.tokensPerSecond).toBeCloseTo(50); // 3000 tokens in 60 s
    expect(stats.em).toBeCloseTo(20 / 30);
    expect(stats.f1).toBeCloseTo(0.8);
    expect(stats.subEm).toBeCloseTo(22 / 30);
  });

  it("gives no rate or ETA to a run that has just started", () => {
    const fresh = computeLiveStats(run({ inFlight: 4 }), at(0.2));
    expect(fresh).toMatchObject({ done: 0, fraction: 0, itemsPerMinute: 0, tokensPerSecond: 0, etaSeconds: null, inFlight: 4 });
    expect(fresh.em).toBeNull();
    // One quick item in the first fraction of a second is not a rate of hundreds per minute.
    expect(computeLiveStats(run({ nDone: 1, emSum: 1, nAgentOk: 1 }), at(0.5)).itemsPerMinute).toBe(0);
  });

  it("measures a resumed run from its resume, adding earlier execution time to elapsed", () => {
    const resumedAt = at(1000);
    const stats = computeLiveStats(run({ nDone: 70, resumedDone: 50, resumedAt, activeMs: 120_000, promptTokens: 7000 }), at(1040));
    expect(stats.itemsPerMinute).toBeCloseTo(30); // 20 items in the 40 s since the resume
    expect(stats.etaSeconds).toBeCloseTo(60); // 30 left at 0.5 per second
    expect(stats.elapsedSeconds).toBeCloseTo(160); // 120 s before, 40 s now
    expect(stats.tokensPerSecond).toBeCloseTo(50); // 100 tokens per item at 0.5 items per second
  });

  it("reports a finished run's averages over its execution time, with no gauges or ETA", () => {
    const stats = computeLiveStats(
      run({ status: "completed", workerId: null, nDone: 100, emSum: 60, nAgentOk: 100, activeMs: 200_000, inFlight: 3, promptTokens: 10_000 }),
      at(5000),
    );
    expect(stats).toMatchObject({ fraction: 1, correct: 60, wrong: 40, inFlight: 0, retrying: 0, rateLimited: 0, etaSeconds: null, elapsedSeconds: 200 });
    expect(stats.itemsPerMinute).toBeCloseTo(30);
    expect(stats.tokensPerSecond).toBeCloseTo(50);
  });

  it("measures a finished run that took under a second from its real elapsed time", () => {
    const stats = computeLiveStats(
      run({ status: "completed", workerId: null, nDone: 80, emSum: 40, nAgentOk: 80, activeMs: 400, promptTokens: 8000, completionTokens: 800 }),
      at(5000),
    );
    expect(stats.elapsedSeconds).toBeCloseTo(0.4);
    expect(stats.itemsPerMinute).toBeCloseTo(12_000); // 80 items in 0.4 s
    expect(stats.tokensPerSecond).toBeCloseTo(22_000); // 8800 tokens in 0.4 s
  });

  it("does not count the clock of a run left running without a process (waiting to be resumed)", () => {
    const stats = computeLiveStats(run({ workerId: null, nDone: 10, activeMs: 20_000, inFlight: 5 }), at(3600));
    expect(stats).toMatchObject({ elapsedSeconds: 20, inFlight: 0, etaSeconds: null });
  });

  it("handles a run of zero items and a queued run", () => {
    const empty = computeLiveStats(run({ itemsTotal: 0, status: "completed", workerId: null }), at(10));
    expect(empty).toMatchObject({ done: 0, total: 0, fraction: 0, itemsPerMinute: 0, etaSeconds: null, em: null, f1: null, subEm: null });
    const queued = computeLiveStats(run({ status: "queued", workerId: null, resumedAt: null }), at(10));
    expect(queued).toMatchObject({ elapsedSeconds: 0, itemsPerMinute: 0, etaSeconds: null });
  });
});
