// The one display-formatting module every page uses: dates in UTC with the zone written out (whatever the machine's
// zone), sub-second durations that do not read as "0s", and the count, score and difference formats.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  formatBytes, formatCost, formatCount, formatDateTime, formatDuration, formatInterval, formatLatency, formatPValue, formatRate, formatScore, formatSigned,
} from "@/app/_lib/format";

describe("formatDateTime", () => {
  let zone: string | undefined;
  beforeEach(() => {
    zone = process.env.TZ;
    // A zone 13:45 ahead of UTC, with the date already the next day: local-time formatting could not pass.
    process.env.TZ = "Pacific/Chatham";
  });
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it("shows UTC with the zone, whatever the machine's time zone", () => {
    const date = new Date("2026-12-01T10:04:59.900Z");
    expect(new Date(2026, 11, 1).getTimezoneOffset()).not.toBe(0);
    expect(formatDateTime(date)).toBe("2026-12-01 10:04 UTC");
    expect(formatDateTime("2026-12-31T23:59:00.000Z")).toBe("2026-12-31 23:59 UTC");
  });

  it("shows an en dash when there is no date", () => {
    expect(formatDateTime(null)).toBe("–");
    expect(formatDateTime(undefined)).toBe("–");
  });
});

describe("formatDuration", () => {
  it("shows a sub-second duration as a fraction of a second, not 0s", () => {
    expect(formatDuration(0.4)).toBe("0.4 s");
    expect(formatDuration(0.042)).toBe("0.04 s");
    expect(formatDuration(0)).toBe("0s");
  });

  it("shows seconds, minutes and hours", () => {
    expect(formatDuration(45)).toBe("45s");
    expect(formatDuration(75)).toBe("1m 15s");
    expect(formatDuration(3725)).toBe("1h 02m");
    expect(formatDuration(null)).toBe("–");
  });
});

describe("numbers", () => {
  it("formats counts, sizes, rates, latencies and scores the same on server and client", () => {
    expect(formatCount(48213)).toBe("48,213");
    expect(formatCount(1234567.6)).toBe("1,234,568");
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(14.2 * 1024)).toBe("14.2 KB");
    expect(formatRate(0)).toBe("–");
    expect(formatRate(12.345)).toBe("12.3");
    expect(formatRate(12_000)).toBe("12,000");
    expect(formatLatency(1250)).toBe("1.25 s");
    expect(formatLatency(125_000)).toBe("2m 05s");
    expect(formatScore(0.8)).toBe("0.800");
    expect(formatScore(null)).toBe("–");
    expect(formatScore(Number.NaN)).toBe("–");
  });

  it("signs differences, and a difference that rounds to zero has no sign", () => {
    expect(formatSigned(0.1333)).toBe("+0.133");
    expect(formatSigned(-0.05)).toBe("-0.050");
    expect(formatSigned(-0.0001)).toBe("0.000");
    expect(formatInterval({ low: -0.02, high: 0.3 })).toBe("[-0.020, +0.300]");
    expect(formatPValue(0.388)).toBe("0.39");
    expect(formatPValue(0.0004)).toBe("< 0.001");
  });
});

describe("formatCost", () => {
  it("shows dollars, fractions of a cent for small runs, and \"unknown\" (never a number) without a price", () => {
    expect(formatCost(12.345)).toBe("$12.35");
    expect(formatCost(0.01234)).toBe("$0.0123");
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(0.00001)).toBe("< $0.0001");
    expect(formatCost(null)).toBe("unknown");
    expect(formatCost(undefined)).toBe("unknown");
    expect(formatCost(Number.NaN)).toBe("unknown");
  });

  it("signs a difference", () => {
    expect(formatCost(0.0123, { signed: true })).toBe("+$0.0123");
    expect(formatCost(-2.5, { signed: true })).toBe("-$2.50");
    expect(formatCost(0, { signed: true })).toBe("$0.00");
    expect(formatCost(null, { signed: true })).toBe("unknown");
  });
});
