import { comparisonCsv, parseRunIds } from "@/lib/compare";
import { getDb } from "@/lib/db";
import { attachmentDisposition, downloadFileName } from "@/lib/export/file-names";
import { loadComparison } from "../_lib/load-comparison";

// Reads the database on every request.
export const dynamic = "force-dynamic";

/** GET /compare/download?runs=12,15: the comparison (summary and per-item outcomes) as CSV. */
export async function GET(request: Request): Promise<Response> {
  const runIds = parseRunIds(new URL(request.url).searchParams.getAll("runs"));
  if (runIds.length < 2) return new Response("Name at least two runs: ?runs=12,15 (the first is the reference).\n", { status: 400 });
  const load = await loadComparison(getDb(), runIds, undefined);
  if (!load.ok) return new Response(`${load.message}\n`, { status: load.runs.length < runIds.length ? 404 : 400 });
  const reference = load.runs[0]!.run;
  const chunks = comparisonCsv(load.runs.map(({ run, difference, paired }) => ({
    id: run.id, skill: run.skillName, version: run.skillVersion, model: run.model, nDone: run.nDone,
    em: run.nDone ? run.emSum / run.nDone : null, f1: run.nDone ? run.f1Sum / run.nDone : null, subEm: run.nDone ? run.subEmSum / run.nDone : null,
    errors: run.nErrors, timeouts: run.nTimeouts, meanLatencyMs: run.nDone ? run.latencyMsSum / run.nDone : null,
    tokens: run.promptTokens + run.completionTokens, difference, paired,
  })));
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  const name = downloadFileName("comparison", runIds.join("-"), `${reference.datasetName} ${reference.skillName}`, "csv");
  return new Response(body, {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": attachmentDisposition(name), "cache-control": "no-store" },
  });
}
