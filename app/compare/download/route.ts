import { z } from "zod";
import { guardedRoute, HttpError } from "@/app/_lib/http";
import { RunIdSchema } from "@/app/_lib/ids";
import { comparisonCsv, parseRunIds } from "@/lib/compare";
import { getDb } from "@/lib/db";
import { downloadResponse } from "@/lib/export/byte-stream";
import { attachmentDisposition, downloadFileName } from "@/lib/export/file-names";
import { loadComparison } from "../_lib/load-comparison";
import { runMeans } from "@/lib/runs/metrics";

// Reads the database on every request.
export const dynamic = "force-dynamic";

const TWO_RUNS = "Name at least two runs: ?runs=12,15 (the first is the reference).";

/** `runs=12,15` or `runs=12&runs=15`: every part a run id (empty parts aside), then in order without repeats, as the page reads them. */
const CompareDownloadQuerySchema = z.object({
  runs: z
    .union([z.string(), z.array(z.string())], { error: TWO_RUNS })
    .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(",")).map((part) => part.trim()).filter(Boolean))
    .superRefine((parts, ctx) => {
      for (const part of parts) {
        if (!RunIdSchema.safeParse(part).success) ctx.addIssue({ code: "custom", message: `"${part}" is not a run id (a positive whole number)` });
      }
    })
    .transform((parts) => parseRunIds(parts))
    .refine((ids) => ids.length >= 2, TWO_RUNS),
});

/** GET /compare/download?runs=12,15: the comparison (summary and per-item outcomes) as CSV. */
export const GET = guardedRoute({ query: CompareDownloadQuerySchema }, async (_request, { query }) => {
  const runIds = query.runs;
  const load = await loadComparison(getDb(), runIds, undefined);
  // Runs it could not find end the list it loaded; runs that cannot be compared (other datasets) do not.
  if (!load.ok) throw new HttpError(load.runs.length < runIds.length ? 404 : 400, load.message);
  const reference = load.runs[0]!.run;
  const chunks = comparisonCsv(load.runs.map(({ run, difference, paired }) => {
    const { em, f1, subEm, latencyMs } = runMeans(run);
    return {
      id: run.id, skill: run.skillName, version: run.skillVersion, model: run.model, nDone: run.nDone, em, f1, subEm,
      errors: run.nErrors, timeouts: run.nTimeouts, meanLatencyMs: latencyMs, tokens: run.promptTokens + run.completionTokens, difference, paired,
    };
  }));
  const fileName = downloadFileName("comparison", runIds.join("-"), `${reference.datasetName} ${reference.skillName}`, "csv");
  return downloadResponse(chunks, { contentType: "text/csv; charset=utf-8", fileName, disposition: attachmentDisposition(fileName) });
});
