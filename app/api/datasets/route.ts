import { guardedRoute } from "@/app/_lib/http";
import { getDb } from "@/lib/db";
import { handleDatasetUpload } from "./dataset-upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/datasets?name=…&fileName=… — upload a dataset file as the raw request body (see ./dataset-upload).
 * proxy.ts skips this route (it would hold the whole upload in memory): the guard here is the only check.
 */
export const POST = guardedRoute(async (request) => handleDatasetUpload(getDb(), request));
