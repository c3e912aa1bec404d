import { guardedRoute } from "@/app/_lib/http";
import { getDb } from "@/lib/db";
import { handleResultsImport } from "./results-upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/runs/import?fileName=…: import a results file as a run (see ./results-upload).
 * proxy.ts skips this route (it would hold the whole upload in memory): the guard here is the only check.
 */
export const POST = guardedRoute(async (request) => handleResultsImport(getDb(), request));
