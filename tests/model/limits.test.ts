import { describe, expect, it } from "vitest";
import { AimdLimiter } from "@/lib/model/limits/aimd";
import type { Clock } from "@/lib/model/limits/clock";
import { RateLimiter } from "@/lib/model/limits/rate-limit";

/** A clock that only moves when a sleeper needs it to: sleeping advances time. */
function fakeClock(): Clock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe("AIMD concurrency", () => {
  it("halves on an overload, once per episode, never below the floor, then grows back by one per window of successes", async () => {
    const aimd = new AimdLimiter({ floor: 2, max: 16 });
    expect(aimd.limit).toBe(16);
    const tickets = await Promise.all(Array.from({ length: 16 }, () => aimd.acquire()));
    // A 429 storm: every in-flight request is refused, but the episode cuts the limit once.
    tickets.forEach((ticket) => ticket.overloaded());
    expect(aimd.limit).toBe(8);
    for (let round = 0; round < 5; round++) (await aimd.acquire()).overloaded();
    expect(aimd.limit).toBe(2);
    // Recovery: +1 after `limit` successes in a row.
    for (let i = 0; i < 2; i++) (await aimd.acquire()).succeeded();
    expect(aimd.limit).toBe(3);
    for (let i = 0; i < 3 + 4 + 5; i++) (await aimd.acquire()).succeeded();
    expect(aimd.limit).toBe(6);
  });

  it("holds requests beyond the limit until a slot frees", async () => {
    const aimd = new AimdLimiter({ floor: 1, max: 2 });
    const [a] = [await aimd.acquire(), await aimd.acquire()];
    let third = false;
    const waiting = aimd.acquire().then((ticket) => {
      third = true;
      return ticket;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(third).toBe(false);
    a!.released();
    (await waiting).released();
    expect(third).toBe(true);
    expect(aimd.inFlight).toBe(1);
  });

  it("gives up waiting when the caller aborts", async () => {
    const aimd = new AimdLimiter({ floor: 1, max: 1 });
    await aimd.acquire();
    const stop = new AbortController();
    const waiting = aimd.acquire(stop.signal);
    stop.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
  });
});

describe("rate caps", () => {
  it("spaces requests at the requests-per-minute rate after a one-second burst", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requestsPerMinute: 600 }, clock);
    const sent: number[] = [];
    for (let i = 0; i < 70; i++) {
      await limiter.acquire(0);
      sent.push(clock.now());
    }
    // 10 at once (one second's worth), then one every 100 ms: 60 more in 6 s.
    expect(sent.slice(0, 10).every((t) => t === 0)).toBe(true);
    expect(sent[69]).toBeCloseTo(6000, 6);
    // In any 1-second window, at most 10 + 10 requests; over the 6 s, 600/min within 5 %.
    const rate = ((sent.length - 10) / (sent[69]! / 60_000));
    expect(Math.abs(rate - 600) / 600).toBeLessThan(0.05);
  });

  it("caps tokens per minute, correcting estimates with the real counts", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ tokensPerMinute: 6000 }, clock);
    const report = await limiter.acquire(100);
    expect(clock.now()).toBe(0);
    // The request really used 400 tokens: the bucket (100 a second) is 300 in debt, so the next waits 3 s for its 100.
    report(400);
    await limiter.acquire(100);
    expect(clock.now()).toBeCloseTo(4000, 6);
  });

  it("serves callers in order and lets an aborted caller go without blocking the rest", async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 60 });
    await limiter.acquire(0);
    const stop = new AbortController();
    const first = limiter.acquire(0, stop.signal);
    stop.abort(new Error("gone"));
    await expect(first).rejects.toThrow("gone");
  });
});
