import { refuseUnlessAllowed } from "@/lib/auth/guard-request";
import { getDb } from "@/lib/db";
import { handleResultsImport } from "./results-upload";

export const dynamic = "force-dynamic";

/** POST /api/runs/import?fileName=…: import a results file as a run (see ./results-upload). */
export async function POST(request: Request): Promise<Response> {
  // proxy.ts skips this route (it would hold the whole upload in memory), so the same rules apply here.
  return refuseUnlessAllowed(request) ?? handleResultsImport(getDb(), request);
}
