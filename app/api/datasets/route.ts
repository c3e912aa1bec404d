import { refuseUnlessAllowed } from "@/lib/auth/guard-request";
import { getDb } from "@/lib/db";
import { handleDatasetUpload } from "./dataset-upload";

export const dynamic = "force-dynamic";

/** POST /api/datasets?name=…&fileName=… — upload a dataset file as the raw request body (see ./dataset-upload). */
export async function POST(request: Request): Promise<Response> {
  // proxy.ts skips this route (it would hold the whole upload in memory), so the same rules apply here.
  return refuseUnlessAllowed(request) ?? handleDatasetUpload(getDb(), request);
}
