import type { DatasetUploadResponse } from "../_lib/dataset-upload-rules";
import { sendFileBody, type SendProgress, type SendResult } from "../_lib/send-file";

export type { SendProgress };

/** POSTs the dataset file itself as the request body to POST /api/datasets, with upload progress. */
export function sendDatasetFile(
  file: File,
  name: string,
  handlers: { onProgress(progress: SendProgress): void; onSent(): void },
): Promise<SendResult<DatasetUploadResponse>> {
  return sendFileBody<DatasetUploadResponse>(`/api/datasets?${new URLSearchParams({ name, fileName: file.name })}`, file, handlers);
}
