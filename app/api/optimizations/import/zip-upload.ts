import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { z } from "zod";
import { errorResponse, fieldMessages } from "@/app/_lib/http";
import { uploadFileNameSchema } from "@/app/_lib/upload-file-name";
import { MAX_IMPORT_NAME_LENGTH, MAX_SKILLOPT_ZIP_BYTES, zipFileProblem, zipTooLarge, type SkillOptImportResponse } from "@/app/_lib/skillopt-import-rules";
import type { Db } from "@/lib/db";
import { importSkillOptZip, SkillOptZipError } from "@/lib/optimize/skillopt-zip";
import { BodyTooLargeError, countBytes, discardRest } from "../../datasets/count-bytes";

const ZipQuerySchema = z.object({
  // Size 1: the body's size is checked as it streams in.
  fileName: uploadFileNameSchema((fileName) => zipFileProblem(fileName, 1)),
  name: z.string().trim().max(MAX_IMPORT_NAME_LENGTH, `name can be at most ${MAX_IMPORT_NAME_LENGTH} characters`).optional(),
});

const nothing = (message: string) => `Nothing was imported. ${message}`;
const fail = (status: number, error: string) => errorResponse<Extract<SkillOptImportResponse, { error: string }>>(status, { error });

/**
 * POST /api/optimizations/import?fileName=…[&name=…] with the zip of a SkillOpt output directory as the raw body. The
 * body is streamed to a temporary file (never held in memory, cut off past the limit), then imported by the one zip
 * importer (lib/optimize/skillopt-zip.ts) and the file removed. 201 {id, message}; 400 {error} naming the zip and the
 * file inside it; 413 over the limit. Nothing is stored on any error.
 */
export async function handleSkillOptZipUpload(db: Db, request: Request, { maxBytes = MAX_SKILLOPT_ZIP_BYTES } = {}): Promise<Response> {
  const url = new URL(request.url);
  const query = ZipQuerySchema.safeParse({ fileName: url.searchParams.get("fileName") ?? undefined, name: url.searchParams.get("name") || undefined });
  const fileName = query.success ? query.data.fileName : (url.searchParams.get("fileName") ?? "the zip");
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) return fail(413, nothing(zipTooLarge(fileName, declared)));
  if (request.body === null) return fail(400, nothing("The request has no body: send the zip's bytes as the body."));
  const body = countBytes(request.body, maxBytes);
  try {
    if (!query.success) return fail(400, nothing(Object.values(fieldMessages(query.error)).join("; ")));
    return await importBody(db, body, declared, query.data);
  } finally {
    // Whatever was refused early, the rest of the body is read so the connection serves the client's next request.
    await discardRest(body.stream);
  }
}

async function importBody(db: Db, body: ReturnType<typeof countBytes>, declared: number, { fileName, name }: z.output<typeof ZipQuerySchema>): Promise<Response> {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-skillopt-upload-"));
  try {
    const path = join(dir, "upload.zip");
    try {
      await pipeline(Readable.fromWeb(body.stream as NodeReadableStream<Uint8Array>), createWriteStream(path));
    } catch (error) {
      if (error instanceof BodyTooLargeError) return fail(413, nothing(zipTooLarge(fileName)));
      throw error;
    }
    if (Number.isFinite(declared) && body.bytesRead() < declared) {
      return fail(413, nothing(`${fileName}: only ${body.bytesRead()} of its ${declared} bytes reached the server`));
    }
    if (body.bytesRead() === 0) return fail(400, nothing(`${fileName}: the file is empty`));
    try {
      const imported = await importSkillOptZip(db, { path }, fileName, { name });
      const notices = imported.notices.length > 0 ? ` (${imported.notices.join("; ")})` : "";
      const message = `Imported ${fileName} as optimisation #${imported.id}: ${imported.stages} stages, ${imported.versions} new versions of ${imported.skillName}${notices}.`;
      return Response.json({ id: imported.id, message } satisfies SkillOptImportResponse, { status: 201, headers: { "Cache-Control": "no-store" } });
    } catch (error) {
      if (error instanceof SkillOptZipError) return fail(400, nothing(error.message));
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
