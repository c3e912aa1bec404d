import { z } from "zod";
import type { ResultsImportResponse } from "@/app/_lib/results-import-response";
import { errorResponse, fieldMessages } from "@/app/_lib/http";
import { DatasetIdSchema, SkillVersionIdSchema } from "@/app/_lib/ids";
import { DatasetValidationError } from "@/lib/datasets";
import { NotFoundError, type Db } from "@/lib/db";
import { importResults } from "@/lib/import";
import { MAX_DATASET_BYTES } from "@/app/_lib/dataset-upload-rules";
import { BodyTooLargeError, countBytes, discardRest } from "../../datasets/count-bytes";

/** The JSON bodies of POST /api/runs/import: a failure is the error body of every route, plus the file's problems by line. */
export type { ResultsImportResponse };

const ImportQuerySchema = z.object({
  fileName: z.string({ error: "fileName is required" }).trim().min(1, "fileName is required").max(255),
  name: z.string().trim().max(200).optional(),
  datasetId: DatasetIdSchema.optional(),
  skillVersionId: SkillVersionIdSchema.optional(),
});

type ImportFailure = Extract<ResultsImportResponse, { error: string }>;

function fail(status: number, body: ImportFailure): Response {
  return errorResponse(status, body);
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
    const fields = fieldMessages(query.error);
    const issues = Object.entries(fields).map(([field, message]) => ({ field, message }));
    return fail(400, { error: issues.map((issue) => `${issue.field}: ${issue.message}`).join("\n"), fields, issues });
  }
  const { fileName, name, datasetId, skillVersionId } = query.data;
  if (Number(request.headers.get("content-length") ?? NaN) > maxBytes) return fail(413, { error: "The file is over the upload limit; nothing was stored." });
  if (request.body === null) return fail(400, { error: "The request has no body: send the file's bytes as the body." });
  const body = countBytes(request.body, maxBytes);
  try {
    const outcome = await importResults(db, body.stream, {
      file: fileName,
      ...(name ? { name } : {}),
      ...(datasetId !== undefined ? { datasetId } : {}),
      ...(skillVersionId !== undefined ? { skillVersionId: async () => skillVersionId } : {}),
    });
    const created: ResultsImportResponse = { runId: outcome.runId, datasetId: outcome.datasetId, datasetCreated: outcome.datasetCreated, items: outcome.items, duplicatesDropped: outcome.duplicatesDropped };
    return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return fail(413, { error: "The file is over the upload limit; nothing was stored." });
    if (error instanceof DatasetValidationError) return fail(400, { error: error.message, issues: error.issues, omittedIssueCount: error.omittedIssueCount });
    if (error instanceof NotFoundError) return fail(404, { error: error.message });
    throw error;
  } finally {
    // A file refused for its first bytes: read the rest, so the connection serves the client's next request.
    await discardRest(body.stream);
  }
}
