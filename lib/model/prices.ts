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

/** OpenAI's published list prices, USD per million tokens, as of the date given; a config entry overrides them. */
export const KNOWN_PRICES_AS_OF = "2025-04-14";
const KNOWN_PRICES: Record<string, z.infer<typeof PriceSchema>> = {
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
export function loadConfiguredPrices(env: Readonly<Record<string, string | undefined>> = process.env): Record<string, z.infer<typeof PriceSchema>> {
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

export function priceOf(model: string, configured: Record<string, z.infer<typeof PriceSchema>> = {}): ModelPrice | null {
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
