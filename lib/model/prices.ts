/**
 * What model tokens cost, per million: a few known models (list prices as published, dated; check before relying on
 * them) and the server's own table in skillboard.config.json (`"prices": {"my-model": {"input": 0.4, "output": 1.6,
 * "cachedInput": 0.1}}`, which wins). A model with no price has an unknown cost, shown as such: never a made-up number.
 */
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { agentConfigPath } from "../agent/config";

const PriceSchema = z.strictObject({
  /** US dollars per million input (prompt) tokens. */
  input: z.number().min(0),
  output: z.number().min(0),
  /** Per million cached input tokens, where the provider discounts them. */
  cachedInput: z.number().min(0).optional(),
});
export type ModelPrice = z.infer<typeof PriceSchema> & { source: string };
export type PriceTable = Record<string, z.infer<typeof PriceSchema>>;

/** OpenAI's published list prices, USD per million tokens, as of the date given; a config entry overrides them. */
export const KNOWN_PRICES_AS_OF = "2025-04-14";
const KNOWN_PRICES: PriceTable = {
  "gpt-4.1": { input: 2, output: 8, cachedInput: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cachedInput: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cachedInput: 0.025 },
  "gpt-4o": { input: 2.5, output: 10, cachedInput: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cachedInput: 0.075 },
};

export class PriceConfigError extends Error {
  override name = "PriceConfigError";
}

/** The configured price table, checked; an error names the file and the field. */
export function loadConfiguredPrices(env: Readonly<Record<string, string | undefined>> = process.env): PriceTable {
  const { path } = agentConfigPath(env);
  if (!existsSync(path)) return {};
  let raw: { prices?: unknown };
  try {
    raw = JSON.parse(readFileSync(path, "utf8")) as { prices?: unknown };
  } catch {
    return {}; // the agents loader reports a broken file; prices then stay unknown
  }
  if (raw.prices === undefined) return {};
  const parsed = z.record(z.string().min(1), PriceSchema).safeParse(raw.prices);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PriceConfigError(`${path}: prices.${issue.path.map(String).join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

export function priceOf(model: string, configured: PriceTable = {}): ModelPrice | null {
  if (Object.hasOwn(configured, model)) return { ...configured[model]!, source: "skillboard.config.json" };
  if (Object.hasOwn(KNOWN_PRICES, model)) return { ...KNOWN_PRICES[model]!, source: `list price as of ${KNOWN_PRICES_AS_OF}` };
  return null;
}

/** The cost in US dollars, or null when the model's price is unknown. */
export function costOf(price: ModelPrice | null, tokens: { prompt: number; completion: number; cachedPrompt?: number }): number | null {
  if (!price) return null;
  const cached = Math.min(tokens.cachedPrompt ?? 0, tokens.prompt);
  const cachedRate = price.cachedInput ?? price.input;
  return ((tokens.prompt - cached) * price.input + cached * cachedRate + tokens.completion * price.output) / 1_000_000;
}

/**
 * The table pages price with: the configured one, or null when skillboard.config.json's prices are broken. Then every
 * cost is unknown, known models too: the broken entry may be the override that applies (the CLI reports the error).
 */
export function pricesForDisplay(env: Readonly<Record<string, string | undefined>> = process.env): PriceTable | null {
  try {
    return loadConfiguredPrices(env);
  } catch (error) {
    if (!(error instanceof PriceConfigError)) throw error;
    // Every cost then reads "unknown"; the log says why, once per distinct problem (pages ask on every request).
    if (!reportedPriceProblems.has(error.message)) {
      reportedPriceProblems.add(error.message);
      process.stderr.write(`skillboard: prices ignored, every cost shows as unknown: ${error.message}\n`);
    }
    return null;
  }
}

const reportedPriceProblems = new Set<string>();

/** Tokens some model calls used: a run's totals (cached replies are not in them), or an optimisation's optimizer calls. */
export interface ModelUsage {
  backend: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  /** "imported": read from a results file, which may carry no token counts at all. */
  source?: string;
}

/** What the usage cost in US dollars (null: unknown) and where the price comes from. */
export interface UsageCost {
  usd: number | null;
  priceSource: string | null;
}

/**
 * The one cost computation every page uses. The offline baseline calls no model and costs 0; an imported run without
 * token counts, a model without a price, or a broken price table (`prices` null) cost unknown, never a made-up number.
 */
export function usageCost(usage: ModelUsage, prices: PriceTable | null): UsageCost {
  if (usage.backend === "baseline") return { usd: 0, priceSource: "the offline baseline calls no model" };
  if (usage.source === "imported" && usage.promptTokens + usage.completionTokens === 0) return { usd: null, priceSource: null };
  const price = prices === null ? null : priceOf(usage.model, prices);
  return { usd: costOf(price, { prompt: usage.promptTokens, completion: usage.completionTokens }), priceSource: price?.source ?? null };
}

/** The sum of several costs, unknown as soon as one of them is (a partial sum would under-state the spend). */
export function totalCost(costs: readonly UsageCost[]): number | null {
  let sum = 0;
  for (const cost of costs) {
    if (cost.usd === null) return null;
    sum += cost.usd;
  }
  return sum;
}
