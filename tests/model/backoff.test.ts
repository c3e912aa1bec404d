// Retry timing: full-jitter backoff, server-requested waits, abortable sleeps.
import { describe, expect, it } from "vitest";
import { backoffDelayMs, serverRequestedDelayMs } from "../../lib/model";
import { sleep } from "../../lib/model/backoff";

describe("backoffDelayMs", () => {
  const options = { baseMs: 500, capMs: 30_000 };

  it("grows exponentially up to the cap, scaled by the jitter draw", () => {
    expect([0, 1, 2, 3].map((retry) => backoffDelayMs(retry, options, () => 0.999_999))).toEqual([499, 999, 1_999, 3_999]);
    expect(backoffDelayMs(20, options, () => 0.999_999)).toBe(29_999);
    expect(backoffDelayMs(1_000, options, () => 0.5)).toBe(15_000);
    expect(backoffDelayMs(3, options, () => 0)).toBe(0);
  });
});

describe("serverRequestedDelayMs", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  const headers = (init: Record<string, string>) => new Headers(init);

  it("reads Retry-After in seconds or as an HTTP date", () => {
    expect(serverRequestedDelayMs(headers({ "retry-after": "2" }), now)).toBe(2_000);
    expect(serverRequestedDelayMs(headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(serverRequestedDelayMs(headers({ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }), now)).toBe(3_000);
    expect(serverRequestedDelayMs(headers({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }), now)).toBe(0);
  });

  it("prefers retry-after-ms and ignores unusable values", () => {
    expect(serverRequestedDelayMs(headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(serverRequestedDelayMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(serverRequestedDelayMs(headers({}), now)).toBeUndefined();
    expect(serverRequestedDelayMs(undefined, now)).toBeUndefined();
  });
});

describe("sleep", () => {
  it("rejects with an AbortError as soon as the signal aborts", async () => {
    const controller = new AbortController();
    const begin = Date.now();
    setTimeout(() => controller.abort(), 20);
    await expect(sleep(10_000, controller.signal)).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - begin).toBeLessThan(5_000); // the sleep is 10 s
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
    await expect(sleep(1)).resolves.toBeUndefined();
  });
});
