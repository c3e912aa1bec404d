/**
 * What every attempt of a model call passes before it is sent: the adaptive concurrency limit and the rate caps,
 * shared by all runs of the process that use the same server and model (providers limit per key and model, not per
 * run). The retry loop reports each attempt's outcome, so a 429 or a timeout lowers the limit.
 */
import { AimdLimiter } from "./aimd";
import { RateLimiter } from "./rate-limit";

export type AttemptOutcome = "ok" | "overload" | "other";

export interface AttemptTicket {
  finish(outcome: AttemptOutcome, tokens?: number): void;
}

export interface RequestGate {
  acquire(estimatedTokens: number, signal?: AbortSignal): Promise<AttemptTicket>;
  /** The adaptive limit now (null when the concurrency is fixed). */
  currentLimit(): number | null;
}

export interface RequestGateSettings {
  /** Adaptive concurrency between `floor` and `max` (the run's concurrency). */
  adaptive?: { floor: number; max: number };
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

class CombinedGate implements RequestGate {
  constructor(private readonly aimd: AimdLimiter | undefined, private readonly rate: RateLimiter | undefined) {}

  currentLimit(): number | null {
    return this.aimd?.limit ?? null;
  }

  async acquire(estimatedTokens: number, signal?: AbortSignal): Promise<AttemptTicket> {
    const slot = await this.aimd?.acquire(signal);
    let report: ((tokens: number) => void) | undefined;
    try {
      report = await this.rate?.acquire(estimatedTokens, signal);
    } catch (error) {
      slot?.released();
      throw error;
    }
    return {
      finish(outcome, tokens) {
        if (tokens !== undefined) report?.(tokens);
        if (outcome === "ok") slot?.succeeded();
        else if (outcome === "overload") slot?.overloaded();
        else slot?.released();
      },
    };
  }
}

// One gate per server, model and settings for the whole process (kept on globalThis across Next's module reloads).
const holder = globalThis as unknown as { __skillboardRequestGates?: Map<string, RequestGate> };

/** The process's gate for this server and model, or undefined when nothing is limited. */
export function sharedRequestGate(target: { backend: string; baseURL?: string; model: string }, settings: RequestGateSettings): RequestGate | undefined {
  if (!settings.adaptive && settings.requestsPerMinute === undefined && settings.tokensPerMinute === undefined) return undefined;
  const gates = (holder.__skillboardRequestGates ??= new Map());
  const key = JSON.stringify([target.backend, target.baseURL ?? null, target.model, settings.adaptive ?? null, settings.requestsPerMinute ?? null, settings.tokensPerMinute ?? null]);
  let gate = gates.get(key);
  if (!gate) {
    gate = new CombinedGate(
      settings.adaptive ? new AimdLimiter({ floor: settings.adaptive.floor, max: settings.adaptive.max }) : undefined,
      settings.requestsPerMinute !== undefined || settings.tokensPerMinute !== undefined
        ? new RateLimiter({ requestsPerMinute: settings.requestsPerMinute, tokensPerMinute: settings.tokensPerMinute })
        : undefined,
    );
    gates.set(key, gate);
  }
  return gate;
}
