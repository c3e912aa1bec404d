// A following item table reloads for new results no more often than its reloads can afford: every second when a
// reload is quick, up to ten seconds apart when the server is slow to render the page.
import { describe, expect, it } from "vitest";
import { FOLLOW_MAX_DELAY_MS, FOLLOW_MIN_DELAY_MS, followReloadDelayMs } from "@/app/runs/_lib/follow-delay";

describe("followReloadDelayMs", () => {
  it("waits a second after a quick reload", () => {
    expect(followReloadDelayMs(20)).toBe(FOLLOW_MIN_DELAY_MS);
    expect(followReloadDelayMs(50)).toBe(1_000);
  });

  it("waits twenty times as long as a slow reload took, so reloads take about a twentieth of the time", () => {
    expect(followReloadDelayMs(150)).toBe(3_000);
    expect(followReloadDelayMs(312.4)).toBe(6_248);
  });

  it("never waits more than ten seconds", () => {
    expect(followReloadDelayMs(800)).toBe(FOLLOW_MAX_DELAY_MS);
    expect(followReloadDelayMs(60_000)).toBe(10_000);
  });

  it("waits a second when the last reload's duration is unknown", () => {
    for (const unknown of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) expect(followReloadDelayMs(unknown)).toBe(1_000);
  });
});
