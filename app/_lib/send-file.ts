export interface SendProgress {
  loaded: number;
  total: number;
}

export interface SendResult<Body> {
  status: number;
  body: Body | undefined;
}

/**
 * POSTs a file itself as the request body to `url`. XMLHttpRequest rather than fetch because only its
 * upload.onprogress reports bytes sent; the browser streams the file from disk, never into memory here.
 */
export function sendFileBody<Body>(url: string, file: File, handlers: { onProgress(progress: SendProgress): void; onSent(): void }): Promise<SendResult<Body>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (event) => handlers.onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.upload.onload = () => handlers.onSent();
    xhr.onload = () => resolve({ status: xhr.status, body: parseJson<Body>(xhr.responseText) });
    xhr.onerror = () => reject(new Error("The upload failed: the server could not be reached or closed the connection."));
    xhr.send(file);
  });
}

function parseJson<Body>(text: string): Body | undefined {
  try {
    return JSON.parse(text) as Body;
  } catch {
    return undefined;
  }
}
