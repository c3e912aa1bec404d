import { guardedRoute } from "@/app/_lib/http";
import { getDb } from "@/lib/db";
import { SkillVersionParamsSchema, skillDownloadResponse } from "./skill-download";

export const dynamic = "force-dynamic";

/** GET /skills/:id/versions/:versionId/download — the version's text as skillboard-skill-<versionId>-<slug>.md. */
export const GET = guardedRoute({ params: SkillVersionParamsSchema }, async (_request, { params }) => skillDownloadResponse(getDb(), params));
