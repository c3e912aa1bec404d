import { z } from "zod";
import { getRun, NotFoundError, type Db } from "../db";
import { parseItemQuery, withoutPage } from "../runs/item-query";
import { downloadResponse } from "./byte-stream";
import { attachmentDisposition, downloadFileName } from "./file-names";
import { buildRunSummary } from "./run-summary";
import { EXPORT_CONTENT_TYPES, EXPORT_EXTENSIONS, EXPORT_FORMATS, exportRunResults } from "./run-export";

/** Explorer parameters that make a download "this view" rather than the whole run. */
const VIEW_PARAMS = ["filter", "reason", "q", "sort", "dir"] as const;

const RunIdSchema = z.string().regex(/^\d{1,9}$/).transform(Number);

function problem(status: number, error: string): Response {
  return Response.json({ error }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * GET /api/runs/<id>/results?format=csv|jsonl|seed[&filter=…&reason=…&q=…&sort=…&dir=…]: the run's results as a
 * streamed download. With any explorer parameter, only that view's rows in its order (the table's query); without,
 * every result in order of completion.
 */
export async function handleResultsDownload(db: Db, rawId: string, params: URLSearchParams): Promise<Response> {
  const id = RunIdSchema.safeParse(rawId);
  if (!id.success) return problem(404, `run ${rawId} not found`);
  const format = z.enum(EXPORT_FORMATS).safeParse(params.get("format") ?? "csv");
  if (!format.success) return problem(400, `format must be one of ${EXPORT_FORMATS.join(", ")}`);
  const run = await findRun(db, id.data);
  if (!run) return problem(404, `run ${id.data} not found`);
  const isView = VIEW_PARAMS.some((key) => params.has(key));
  const view = isView ? withoutPage(parseItemQuery(params, { filter: "all" })) : undefined;
  const kind = format.data === "seed" ? "seed-results" : view ? "view" : "results";
  const fileName = downloadFileName(kind, id.data, run.name ?? `run-${id.data}`, EXPORT_EXTENSIONS[format.data]);
  return downloadResponse(exportRunResults(db, id.data, format.data, view ? { view } : {}), {
    contentType: EXPORT_CONTENT_TYPES[format.data],
    fileName,
    disposition: attachmentDisposition(fileName),
  });
}

/** GET /api/runs/<id>/summary: the run's summary document (configuration, metrics, counts, timings, identities). */
export async function handleSummaryDownload(db: Db, rawId: string): Promise<Response> {
  const id = RunIdSchema.safeParse(rawId);
  if (!id.success) return problem(404, `run ${rawId} not found`);
  const run = await findRun(db, id.data);
  if (!run) return problem(404, `run ${id.data} not found`);
  const fileName = downloadFileName("summary", id.data, run.name ?? `run-${id.data}`, "json");
  return new Response(`${JSON.stringify(await buildRunSummary(db, id.data), null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json",
      "Content-Disposition": attachmentDisposition(fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}

async function findRun(db: Db, id: number) {
  try {
    return await getRun(db, id);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
