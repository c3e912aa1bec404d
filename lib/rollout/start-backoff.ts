/**
 * When a queue worker tries again to take part in a run it could not start on (the run's agent is not installed on
 * this machine, its agents file lacks it…): not at every poll, which logged the same error every second, but after the
 * poll interval, then twice as long after each failure, up to `maxMs`; and at once when the run's state changed since
 * (it was resumed, or another worker made it the queue's) or once it took part. The error is logged once; the later
 * failures only say when the next try is, while that wait still grows. Each run has its own: the others go on as usual.
 */
export interface StartBackoffOptions {
  /** The first wait (the worker's poll interval). */
  firstMs: number;
  /** The longest wait (60 s). */
  maxMs: number;
  now?: () => number;
}

interface Failing {
  state: string;
  message: string;
  delayMs: number;
  nextAt: number;
}

export class StartBackoff {
  readonly #failing = new Map<number, Failing>();
  readonly #now: () => number;

  constructor(private readonly options: StartBackoffOptions) {
    this.#now = options.now ?? Date.now;
  }

  /** Whether to try the run now: it is not failing, its wait is over, or its state is not the one it failed in. */
  ready(runId: number, state: string): boolean {
    const failing = this.#failing.get(runId);
    if (!failing) return true;
    if (failing.state !== state) {
      this.#failing.delete(runId);
      return true;
    }
    return this.#now() >= failing.nextAt;
  }

  /** A try that failed in `state`: schedules the next one and returns the line to log, or null when it has nothing new to say. */
  failed(runId: number, state: string, message: string): string | null {
    const before = this.#failing.get(runId);
    const again = before !== undefined && before.state === state && before.message === message;
    const delayMs = again ? Math.min(this.options.maxMs, before.delayMs * 2) : Math.min(this.options.maxMs, this.options.firstMs);
    this.#failing.set(runId, { state, message, delayMs, nextAt: this.#now() + delayMs });
    const next = `next try in ${seconds(delayMs)}`;
    if (!again) return `cannot take part: ${message}; ${next}`;
    if (delayMs === before.delayMs) return null;
    return delayMs === this.options.maxMs ? `still failing, ${next}, then every ${seconds(delayMs)} without saying so` : `still failing, ${next}`;
  }

  /** It took part: a later failure is a new one (logged, and retried after the first wait). */
  succeeded(runId: number): void {
    this.#failing.delete(runId);
  }

  /** Forgets the runs no longer listed (ended, cancelled, paused): one listed again starts afresh. */
  retain(runIds: Iterable<number>): void {
    const listed = new Set(runIds);
    for (const runId of this.#failing.keys()) if (!listed.has(runId)) this.#failing.delete(runId);
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
