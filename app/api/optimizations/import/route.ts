import { guardedRoute } from "@/app/_lib/http";
import { getDb } from "@/lib/db";
import { handleSkillOptZipUpload } from "./zip-upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/optimizations/import?fileName=…[&name=…]: import the zip of a SkillOpt output directory (see ./zip-upload).
 * proxy.ts skips this route (it would hold the whole upload in memory): the guard here is the only check.
 */
export const POST = guardedRoute(async (request) => handleSkillOptZipUpload(getDb(), request));
