import { refuseUnlessAllowed } from "@/lib/auth/guard-request";
import { getDataset, NotFoundError } from "@/lib/db";
import { getDb } from "@/lib/db";
import { downloadResponse } from "@/lib/export/byte-stream";
import { exportDatasetItems } from "@/lib/export/dataset-export";
import { attachmentDisposition, downloadFileName } from "@/lib/export/file-names";

export const dynamic = "force-dynamic";

/** GET /api/datasets/<id>/items: the dataset as JSONL (streamed), readable by the dataset importer. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const refused = refuseUnlessAllowed(request);
  if (refused) return refused;
  const { id } = await context.params;
  const db = getDb();
  const dataset = /^\d{1,9}$/.test(id) ? await getDataset(db, Number(id)).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  }) : null;
  if (!dataset) return Response.json({ error: `dataset ${id} not found` }, { status: 404 });
  const fileName = downloadFileName("dataset", dataset.id, dataset.name, "jsonl");
  return downloadResponse(exportDatasetItems(db, dataset.id), {
    contentType: "application/x-ndjson; charset=utf-8",
    fileName,
    disposition: attachmentDisposition(fileName),
  });
}
