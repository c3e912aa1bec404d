import type { Db } from "./client";

/**
 * The tokens an optimisation used, for its cost (lib/optimize/cost.ts prices them): each run it made, with that run's
 * model (cached replies are not in a run's totals), and its optimizer calls' prompt and completion tokens.
 */
export interface OptimizationUsage {
  targetRuns: { backend: string; model: string; promptTokens: number; completionTokens: number; source: string }[];
  optimizer: { promptTokens: number; completionTokens: number };
}

/** By optimisation id; an id with no runs and no calls gets empty usage. */
export async function listOptimizationUsage(db: Db, optimizationIds: readonly number[]): Promise<Map<number, OptimizationUsage>> {
  const ids = [...new Set(optimizationIds)];
  const [links, calls] = await Promise.all([
    db.optimizationRun.findMany({
      where: { optimizationId: { in: ids } },
      select: { optimizationId: true, run: { select: { backend: true, model: true, promptTokens: true, completionTokens: true, source: true } } },
      orderBy: { runId: "asc" },
    }),
    db.optimizerCall.groupBy({ by: ["optimizationId"], where: { optimizationId: { in: ids } }, _sum: { promptTokens: true, completionTokens: true } }),
  ]);
  const usage = new Map<number, OptimizationUsage>(ids.map((id) => [id, { targetRuns: [], optimizer: { promptTokens: 0, completionTokens: 0 } }]));
  for (const link of links) usage.get(link.optimizationId)!.targetRuns.push(link.run);
  for (const call of calls) {
    usage.get(call.optimizationId)!.optimizer = { promptTokens: call._sum.promptTokens ?? 0, completionTokens: call._sum.completionTokens ?? 0 };
  }
  return usage;
}
