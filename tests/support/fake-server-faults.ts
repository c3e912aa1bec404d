/** Fault plans for the fake model server (fake-openai-server.ts): which requests fail, and how. */
import type { Fault, FaultPlan } from "./fake-openai-server";
import { seededRandom } from "../../lib/stats/random";

export type QuestionMatcher = string | RegExp | ((question: string) => boolean);

function matches(matcher: QuestionMatcher, question: string): boolean {
  if (typeof matcher === "string") return question.includes(matcher);
  if (matcher instanceof RegExp) return matcher.test(question);
  return matcher(question);
}

/** The fault on the first attempt of every matching question; later attempts succeed. */
export function faultOnce(matcher: QuestionMatcher, fault: Fault): FaultPlan {
  return { pick: (ctx) => (ctx.attemptForQuestion === 1 && matches(matcher, ctx.question) ? fault : undefined) };
}

/** The fault on every attempt of every matching question. */
export function faultAlways(matcher: QuestionMatcher, fault: Fault): FaultPlan {
  return { pick: (ctx) => (matches(matcher, ctx.question) ? fault : undefined) };
}

/** The fault on the first `n` attempts of each (matching) question. */
export function faultFirstN(n: number, fault: Fault, matcher: QuestionMatcher = () => true): FaultPlan {
  return { pick: (ctx) => (ctx.attemptForQuestion <= n && matches(matcher, ctx.question) ? fault : undefined) };
}

/** faults[i] for request i (by arrival order); undefined or past the end answers normally. */
export function faultSequence(faults: (Fault | undefined)[]): FaultPlan {
  return { pick: (ctx) => faults[ctx.requestIndex] };
}

/**
 * A seeded random mix, for soak tests: each request gets `fault` with probability `rate` (rates add up to at most 1),
 * else answers normally. The same seed gives the same sequence of picks.
 */
export function faultAtRandom(seed: number, faults: { rate: number; fault: Fault }[]): FaultPlan {
  const random = seededRandom(seed);
  return {
    pick: () => {
      let roll = random();
      for (const { rate, fault } of faults) {
        if (roll < rate) return fault;
        roll -= rate;
      }
      return undefined;
    },
  };
}

/** The first plan that picks a fault wins; the plans after it are not asked. */
export function combineFaults(...plans: FaultPlan[]): FaultPlan {
  return {
    pick(ctx) {
      for (const plan of plans) {
        const fault = plan.pick(ctx);
        if (fault) return fault;
      }
      return undefined;
    },
  };
}
