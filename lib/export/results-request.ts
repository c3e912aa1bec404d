import { getRun, type Db } from "../db";
import { parseItemQuery, withoutPage } from "../runs/item-query";
import { downloadResponse } from "./byte-stream";
import { attachmentDisposition, downloadFileName } from "./file-names";
import { buildRunSummary } from "./run-summary";
import { EXPORT_CONTENT_TYPES, EXPORT_EXTENSIONS, exportRunResults, type ExportFormat } from "./run-export";

/** Explorer parameters that make a download "this view" rather than the whole run. */
const VIEW_PARAMS = ["filter", "reason", "q", "sort", "dir"] as const;

/**
 * GET /api/runs/<id>/results?format=csv|jsonl|seed[&filter=…&reason=…&q=…&sort=…&dir=…]: the run's results as a
 * streamed download. With any explorer parameter, only that view's rows in its order (the table's query); without,
 * every result in order of completion. The route has checked the id and the format; an unknown run is a
 * NotFoundError, thrown before anything is sent.
 */
export async function handleResultsDownload(db: Db, runId: number, format: ExportFormat, params: URLSearchParams): Promise<Response> {
  const run = await getRun(db, runId);
  const isView = VIEW_PARAMS.some((key) => params.has(key));
  const view = isView ? withoutPage(parseItemQuery(params, { filter: "all" })) : undefined;
  const kind = format === "seed" ? "seed-results" : view ? "view" : "results";
  const fileName = downloadFileName(kind, runId, run.name ?? `run-${runId}`, EXPORT_EXTENSIONS[format]);
  return downloadResponse(exportRunResults(db, runId, format, view ? { view } : {}), {
    contentType: EXPORT_CONTENT_TYPES[format],
    fileName,
    disposition: attachmentDisposition(fileName),
  });
}

/**
 * GET /api/runs/<id>/summary: the run's summary document (configuration, metrics, counts, timings, identities); a
 * NotFoundError for an unknown run.
 */
export async function handleSummaryDownload(db: Db, runId: number): Promise<Response> {
  const run = await getRun(db, runId);
  const fileName = downloadFileName("summary", runId, run.name ?? `run-${runId}`, "json");
  return new Response(`${JSON.stringify(await buildRunSummary(db, runId), null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json",
      "Content-Disposition": attachmentDisposition(fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}
