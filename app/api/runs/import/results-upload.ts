import { z } from "zod";
import { DatasetValidationError } from "@/lib/datasets";
import { NotFoundError, type Db } from "@/lib/db";
import { importResults } from "@/lib/import";
import { MAX_DATASET_BYTES } from "@/app/datasets/dataset-upload-rules";
import { BodyTooLargeError, countBytes, discardRest } from "../../datasets/count-bytes";

/** The JSON bodies of POST /api/runs/import. */
export type ResultsImportResponse =
  | { runId: number; datasetId: number; datasetCreated: boolean; items: number; duplicatesDropped: number }
  | { error: string; issues?: { line?: number; field?: string; message: string }[]; omittedIssueCount?: number };

const OptionalId = z.string().regex(/^\d{1,9}$/, "must be an id").transform(Number).optional();

const ImportQuerySchema = z.object({
  fileName: z.string({ error: "fileName is required" }).trim().min(1, "fileName is required").max(255),
  name: z.string().trim().max(200).optional(),
  datasetId: OptionalId,
  skillVersionId: OptionalId,
});

function reply(status: number, body: ResultsImportResponse): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * POST /api/runs/import?fileName=…[&name=…&datasetId=…&skillVersionId=…] with the results file as the raw body,
 * streamed into the line parser (as the dataset upload is). 201 {runId, …}; 400 {error, issues} by line; 404 an
 * unknown dataset or skill version; 413 over the limit. Nothing is stored unless every line is right.
 */
export async function handleResultsImport(db: Db, request: Request, { maxBytes = MAX_DATASET_BYTES } = {}): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const query = ImportQuerySchema.safeParse({
    fileName: params.get("fileName") ?? undefined,
    name: params.get("name") || undefined,
    datasetId: params.get("datasetId") || undefined,
    skillVersionId: params.get("skillVersionId") || undefined,
  });
  if (!query.success) {
    const issues = query.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message }));
    return reply(400, { error: issues.map((issue) => `${issue.field}: ${issue.message}`).join("\n"), issues });
  }
  const { fileName, name, datasetId, skillVersionId } = query.data;
  if (Number(request.headers.get("content-length") ?? NaN) > maxBytes) return reply(413, { error: "The file is over the upload limit; nothing was stored." });
  if (request.body === null) return reply(400, { error: "The request has no body: send the file's bytes as the body." });
  const body = countBytes(request.body, maxBytes);
  try {
    const outcome = await importResults(db, body.stream, {
      file: fileName,
      ...(name ? { name } : {}),
      ...(datasetId !== undefined ? { datasetId } : {}),
      ...(skillVersionId !== undefined ? { skillVersionId: async () => skillVersionId } : {}),
    });
    return reply(201, { runId: outcome.runId, datasetId: outcome.datasetId, datasetCreated: outcome.datasetCreated, items: outcome.items, duplicatesDropped: outcome.duplicatesDropped });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return reply(413, { error: "The file is over the upload limit; nothing was stored." });
    if (error instanceof DatasetValidationError) return reply(400, { error: error.message, issues: error.issues, omittedIssueCount: error.omittedIssueCount });
    if (error instanceof NotFoundError) return reply(404, { error: error.message });
    throw error;
  } finally {
    // A file refused for its first bytes: read the rest, so the connection serves the client's next request.
    await discardRest(body.stream);
  }
}
