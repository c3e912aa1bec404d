// A queue worker's retries of a run it cannot start on: twice as long each time up to the cap, the error said once, and
// at once again when the run changed, once it took part, or when it is listed anew.
import { describe, expect, it } from "vitest";
import { StartBackoff } from "@/lib/rollout/start-backoff";

function clocked() {
  let now = 0;
  const backoff = new StartBackoff({ firstMs: 1000, maxMs: 8000, now: () => now });
  return { backoff, advance: (ms: number) => (now += ms) };
}

describe("StartBackoff", () => {
  it("waits 1, 2, 4, 8, 8 s between tries, says the error once and then only when the wait grows", () => {
    const { backoff, advance } = clocked();
    const lines: (string | null)[] = [];
    const waits: number[] = [];
    expect(backoff.ready(7, "queued")).toBe(true);
    for (let attempt = 0; attempt < 6; attempt++) {
      lines.push(backoff.failed(7, "queued", "agent missing"));
      let waited = 0;
      while (!backoff.ready(7, "queued")) {
        advance(500);
        waited += 500;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(lines).toEqual([
      "cannot take part: agent missing; next try in 1 s",
      "still failing, next try in 2 s",
      "still failing, next try in 4 s",
      "still failing, next try in 8 s, then every 8 s without saying so",
      null,
      null,
    ]);
  });

  it("tries again at once when the run's state changed, and a new error is said (and waited for) afresh", () => {
    const { backoff } = clocked();
    backoff.failed(7, "queued", "agent missing");
    backoff.failed(7, "queued", "agent missing");
    expect(backoff.ready(7, "queued")).toBe(false);
    // Another worker made it the queue's run (or it was resumed): a new situation.
    expect(backoff.ready(7, "running queue 123")).toBe(true);
    expect(backoff.failed(7, "running queue 123", "agent missing")).toBe("cannot take part: agent missing; next try in 1 s");
    expect(backoff.failed(7, "running queue 123", "disk full")).toBe("cannot take part: disk full; next try in 1 s");
  });

  it("starts afresh after the run took part, or was not listed for a while; other runs are not held back", () => {
    const { backoff } = clocked();
    backoff.failed(7, "queued", "agent missing");
    backoff.failed(8, "queued", "agent missing");
    expect(backoff.ready(9, "queued")).toBe(true);
    backoff.succeeded(7);
    expect(backoff.ready(7, "queued")).toBe(true);
    expect(backoff.failed(7, "queued", "agent missing")).toBe("cannot take part: agent missing; next try in 1 s");
    backoff.retain([7]);
    expect(backoff.ready(8, "queued")).toBe(true);
    expect(backoff.ready(7, "queued")).toBe(false);
  });
});
