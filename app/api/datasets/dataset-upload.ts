import { z } from "zod";
import { errorResponse, fieldMessages } from "@/app/_lib/http";
import { uploadFileNameSchema } from "@/app/_lib/upload-file-name";
import { findDatasetByHash, importDataset, type Db } from "@/lib/db";
import { DatasetValidationError, detectFormat, hashDatasetItems, parseDatasetStream, sha256Passthrough, type DatasetItem } from "@/lib/datasets";
import {
  datasetFileNameProblem,
  MAX_DATASET_BYTES,
  MAX_DATASET_NAME_LENGTH,
  type DatasetUploadResponse,
  type UploadIssue,
} from "@/app/_lib/dataset-upload-rules";
import { BodyTooLargeError, countBytes, discardRest } from "./count-bytes";

const UploadQuerySchema = z.object({
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, "name is required")
    .max(MAX_DATASET_NAME_LENGTH, `name can be at most ${MAX_DATASET_NAME_LENGTH} characters`),
  fileName: uploadFileNameSchema(datasetFileNameProblem),
});

type UploadFailure = Extract<DatasetUploadResponse, { error: string }>;

function fail(status: number, body: UploadFailure): Response {
  return errorResponse(status, body);
}

function tooLarge(limit: number): Response {
  return fail(413, { error: `The upload is larger than the ${Math.round(limit / (1024 * 1024))} MB limit; nothing was stored.` });
}

/**
 * POST /api/datasets?name=…&fileName=… with the raw file as the body. The body is streamed into the
 * validating parser (never read whole as text), then the items are stored (lib/db importDataset: short
 * transactions under a dataset hidden until complete), so a file with any problem stores nothing. 201 {id, …}; 400 {error, issues} naming line and field; 413 over the limit.
 */
export async function handleDatasetUpload(db: Db, request: Request, { maxBytes = MAX_DATASET_BYTES } = {}): Promise<Response> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) return tooLarge(maxBytes);
  if (request.body === null) return fail(400, { error: "The request has no body: send the file's bytes as the body." });
  const body = countBytes(request.body, maxBytes);
  const response = await answerUpload(db, request, body, declared);
  // Whatever was refused early, the rest of the body is read so the connection serves the client's next request.
  await discardRest(body.stream);
  return response;
}

async function answerUpload(db: Db, request: Request, body: ReturnType<typeof countBytes>, declared: number): Promise<Response> {
  const url = new URL(request.url);
  const query = UploadQuerySchema.safeParse({
    name: url.searchParams.get("name") ?? undefined,
    fileName: url.searchParams.get("fileName") ?? undefined,
  });
  if (!query.success) {
    const fields = fieldMessages(query.error);
    const issues: UploadIssue[] = Object.entries(fields).map(([field, message]) => ({ field, message }));
    return fail(400, { error: issues.map((issue) => `${issue.field}: ${issue.message}`).join("\n"), fields, issues });
  }
  const { name, fileName } = query.data;

  // The file's own sha256 (what `sha256sum` prints) is taken on the way into the parser: the body is read once.
  const file = sha256Passthrough(body.stream);
  let items: DatasetItem[];
  try {
    items = await parseDatasetStream(file.stream, { fileName });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return tooLarge(error.limit);
    if (!(error instanceof DatasetValidationError)) throw error;
    // A cut-off body makes a misleading syntax error at its end; say what really happened.
    if (isTruncated(body, declared)) return truncated(body.bytesRead(), declared);
    return fail(400, { error: error.message, file: error.file, issues: error.issues, omittedIssueCount: error.omittedIssueCount });
  }
  if (isTruncated(body, declared)) return truncated(body.bytesRead(), declared);
  if (items.length === 0) return fail(400, { error: `${fileName}: the file has no items; nothing was stored.`, file: fileName, issues: [{ message: "the file has no items" }] });

  const hash = await hashDatasetItems(items);
  const duplicate = await findDatasetByHash(db, hash);
  const dataset = await importDataset(db, { name, fileName, format: detectFormat(fileName), hash, fileSha256: file.digest(), items });
  return Response.json({ id: dataset.id, name: dataset.name, itemCount: dataset.itemCount, duplicateOfId: duplicate?.id ?? null } satisfies DatasetUploadResponse, { status: 201, headers: { "Cache-Control": "no-store" } });
}

/**
 * The whole body arrived, but fewer bytes than the client declared: something in between (Next's proxy
 * buffers bodies only up to experimental.proxyClientMaxBodySize) cut it off.
 */
function isTruncated(body: { bytesRead(): number; ended(): boolean }, declared: number): boolean {
  return body.ended() && Number.isFinite(declared) && body.bytesRead() < declared;
}

function truncated(received: number, declared: number): Response {
  return fail(413, {
    error:
      `Only ${received} of the file's ${declared} bytes reached the server (the server cuts request bodies off at ` +
      `its configured limit, experimental.proxyClientMaxBodySize); nothing was stored.`,
  });
}
