/**
 * Adaptive concurrency: additive increase, multiplicative decrease (the rule TCP uses for its window). The limit grows
 * by one after `limit` requests in a row succeed and is cut by `decreaseFactor` on an overload signal (a 429 or a
 * timeout), never below `floor` nor above `max`. One overload episode cuts once: requests that were already in flight
 * when the limit was cut do not cut it again.
 */
export interface AimdOptions {
  floor: number;
  max: number;
  /** Where it starts (default: max, so a healthy server is used fully from the first request). */
  initial?: number;
  decreaseFactor?: number;
}

export interface AimdTicket {
  /** The request got an answer (any status other than an overload). */
  succeeded(): void;
  /** The server said it is overloaded (429) or the request timed out. */
  overloaded(): void;
  /** Neither (an abort, a refused request): frees the slot only. */
  released(): void;
}

export class AimdLimiter {
  private current: number;
  private active = 0;
  private successesInRow = 0;
  /** Bumped at every cut; a ticket from before the last cut cannot cut again. */
  private epoch = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly decreaseFactor: number;

  constructor(private readonly options: AimdOptions) {
    if (!(options.floor >= 1) || !(options.max >= options.floor)) throw new RangeError(`AIMD needs 1 <= floor <= max, got ${options.floor}..${options.max}`);
    this.current = Math.min(options.max, Math.max(options.floor, options.initial ?? options.max));
    this.decreaseFactor = options.decreaseFactor ?? 0.5;
  }

  get limit(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.active;
  }

  /** Waits for a slot under the current limit. */
  async acquire(signal?: AbortSignal): Promise<AimdTicket> {
    while (this.active >= this.current) {
      if (signal?.aborted) throw signal.reason;
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          const index = this.waiting.indexOf(wake);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal!.reason);
        };
        this.waiting.push(wake);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
    this.active++;
    const epoch = this.epoch;
    let done = false;
    const finish = (outcome: "ok" | "overload" | "none") => {
      if (done) return;
      done = true;
      this.active--;
      if (outcome === "ok") this.onSuccess();
      else if (outcome === "overload") this.onOverload(epoch);
      this.wakeWaiters();
    };
    return { succeeded: () => finish("ok"), overloaded: () => finish("overload"), released: () => finish("none") };
  }

  private onSuccess(): void {
    this.successesInRow++;
    if (this.successesInRow >= this.current && this.current < this.options.max) {
      this.current++;
      this.successesInRow = 0;
    }
  }

  private onOverload(ticketEpoch: number): void {
    this.successesInRow = 0;
    if (ticketEpoch !== this.epoch) return;
    this.epoch++;
    this.current = Math.max(this.options.floor, Math.floor(this.current * this.decreaseFactor));
  }

  private wakeWaiters(): void {
    // Woken waiters check the limit again before taking a slot.
    for (let free = this.current - this.active; free > 0 && this.waiting.length > 0; free--) this.waiting.shift()!();
  }

}
