/**
 * What an optimisation has cost in money: its target runs at the target model's price and its optimizer calls at the
 * optimizer model's, each priced by lib/model/prices.ts's usageCost (the one cost computation). Unknown where no
 * price is known; an imported optimisation (read from a SkillOpt directory) recorded no usage, so it is unknown too.
 */
import type { OptimizationUsage } from "../db/optimization-usage";
import { totalCost, usageCost, type PriceTable, type UsageCost } from "../model/prices";

export interface OptimizationCost {
  /** All target runs together (unknown as soon as one run's model has no price). */
  target: number | null;
  optimizer: UsageCost;
  total: number | null;
}

const UNKNOWN: UsageCost = { usd: null, priceSource: null };

export function optimizationCost(
  row: { source: string; optimizerJson: string },
  usage: OptimizationUsage,
  prices: PriceTable | null,
): OptimizationCost {
  if (row.source === "imported") return { target: null, optimizer: UNKNOWN, total: null };
  const target = totalCost(usage.targetRuns.map((run) => usageCost(run, prices)));
  const model = optimizerModel(row.optimizerJson);
  const optimizer = model ? usageCost({ ...model, ...usage.optimizer }, prices) : UNKNOWN;
  return { target, optimizer, total: totalCost([{ usd: target, priceSource: null }, optimizer]) };
}

/** The optimizer's backend and model as stored; null when the model was left to the server's default (not recorded). */
function optimizerModel(json: string): { backend: string; model: string } | null {
  try {
    const parsed = JSON.parse(json) as { backend?: unknown; model?: unknown };
    return typeof parsed.backend === "string" && typeof parsed.model === "string" ? { backend: parsed.backend, model: parsed.model } : null;
  } catch {
    return null;
  }
}
