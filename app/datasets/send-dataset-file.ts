import type { DatasetUploadResponse } from "../_lib/dataset-upload-rules";

export interface SendProgress {
  loaded: number;
  total: number;
}

export interface SendResult {
  status: number;
  body: DatasetUploadResponse | undefined;
}

/**
 * POSTs the file itself as the request body. XMLHttpRequest rather than fetch because only its
 * upload.onprogress reports bytes sent; the browser streams the file from disk, never into memory here.
 */
export function sendDatasetFile(
  file: File,
  name: string,
  handlers: { onProgress(progress: SendProgress): void; onSent(): void },
): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/datasets?${new URLSearchParams({ name, fileName: file.name })}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (event) => handlers.onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.upload.onload = () => handlers.onSent();
    xhr.onload = () => resolve({ status: xhr.status, body: parseJson(xhr.responseText) });
    xhr.onerror = () => reject(new Error("The upload failed: the server could not be reached or closed the connection."));
    xhr.send(file);
  });
}

function parseJson(text: string): DatasetUploadResponse | undefined {
  try {
    return JSON.parse(text) as DatasetUploadResponse;
  } catch {
    return undefined;
  }
}
