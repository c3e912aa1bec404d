/**
 * Requests-per-minute and tokens-per-minute caps, applied before a request is sent. Each is a token bucket refilled at
 * cap/60 per second holding at most one second's worth, so the rate holds over any window, not only per minute (a
 * minute-long window would let the whole minute's requests go at once).
 */
import { systemClock, type Clock } from "./clock";

export interface RateCaps {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

class TokenBucket {
  private level: number;
  private updatedAt: number;
  private readonly perMs: number;
  readonly capacity: number;

  constructor(perMinute: number, private readonly clock: Clock) {
    if (!(perMinute > 0)) throw new RangeError(`a rate cap must be positive, got ${perMinute}`);
    this.perMs = perMinute / 60_000;
    this.capacity = Math.max(1, perMinute / 60);
    this.level = this.capacity;
    this.updatedAt = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    this.level = Math.min(this.capacity, this.level + (now - this.updatedAt) * this.perMs);
    this.updatedAt = now;
  }

  /** How long until `amount` (capped at the capacity, so a big request is not refused forever) is available. */
  waitMs(amount: number): number {
    this.refill();
    const needed = Math.min(amount, this.capacity);
    return this.level >= needed ? 0 : (needed - this.level) / this.perMs;
  }

  take(amount: number): void {
    this.refill();
    this.level -= amount;
  }

  /** Corrects an estimate once the real amount is known (may go negative: later requests wait longer). */
  adjust(delta: number): void {
    this.refill();
    this.level = Math.min(this.capacity, this.level - delta);
  }
}

export class RateLimiter {
  private readonly requests?: TokenBucket;
  private readonly tokens?: TokenBucket;
  private queue: Promise<void> = Promise.resolve();

  constructor(caps: RateCaps, private readonly clock: Clock = systemClock) {
    if (caps.requestsPerMinute !== undefined) this.requests = new TokenBucket(caps.requestsPerMinute, clock);
    if (caps.tokensPerMinute !== undefined) this.tokens = new TokenBucket(caps.tokensPerMinute, clock);
  }

  /**
   * Waits until one more request of about `estimatedTokens` fits under the caps, then counts it. Callers are served in
   * the order they asked. Returns a function to report the request's real token count.
   */
  async acquire(estimatedTokens: number, signal?: AbortSignal): Promise<(actualTokens: number) => void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        const wait = Math.max(this.requests?.waitMs(1) ?? 0, this.tokens?.waitMs(estimatedTokens) ?? 0);
        if (wait <= 0) break;
        await this.clock.sleep(wait, signal);
      }
      this.requests?.take(1);
      this.tokens?.take(estimatedTokens);
    });
    // A caller that gave up (abort) must not block the ones behind it.
    this.queue = turn.catch(() => undefined);
    await turn;
    return (actualTokens) => this.tokens?.adjust(actualTokens - estimatedTokens);
  }
}
