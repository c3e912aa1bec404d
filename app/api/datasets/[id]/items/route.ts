import { guardedRoute } from "@/app/_lib/http";
import { DatasetParamsSchema } from "@/app/_lib/ids";
import { getDataset, getDb } from "@/lib/db";
import { downloadResponse } from "@/lib/export/byte-stream";
import { exportDatasetItems } from "@/lib/export/dataset-export";
import { attachmentDisposition, downloadFileName } from "@/lib/export/file-names";

export const dynamic = "force-dynamic";

/** GET /api/datasets/<id>/items: the dataset as JSONL (streamed), readable by the dataset importer. */
export const GET = guardedRoute({ params: DatasetParamsSchema }, async (_request, { params }) => {
  const db = getDb();
  const dataset = await getDataset(db, params.id);
  const fileName = downloadFileName("dataset", dataset.id, dataset.name, "jsonl");
  return downloadResponse(exportDatasetItems(db, dataset.id), {
    contentType: "application/x-ndjson; charset=utf-8",
    fileName,
    disposition: attachmentDisposition(fileName),
  });
});
