import { getSkillVersion, NotFoundError, type Db } from "@/lib/db";
import { attachmentDisposition, downloadFileName } from "@/lib/export/file-names";
import { parsePositiveInt } from "../../../../../_components/route-params";

/** Where a version's .md download is served. */
export function skillDownloadPath(version: { skillId: number; id: number }): string {
  return `/skills/${version.skillId}/versions/${version.id}/download`;
}

function notFound(message: string): Response {
  return Response.json({ error: message }, { status: 404 });
}

/**
 * A skill version's exact text as a markdown attachment. The version must belong to the skill in the
 * path, so a URL never serves another skill's text under this skill's name.
 */
export async function skillDownloadResponse(db: Db, params: { id: string; versionId: string }): Promise<Response> {
  const skillId = parsePositiveInt(params.id);
  const versionId = parsePositiveInt(params.versionId);
  if (skillId === undefined || versionId === undefined) return notFound("no such skill version");
  try {
    const version = await getSkillVersion(db, versionId);
    if (version.skillId !== skillId) return notFound("no such skill version");
    return new Response(version.content, {
      headers: {
        "Content-Type": "text/markdown; charset=utf-8",
        "Content-Disposition": attachmentDisposition(downloadFileName("skill", version.id, version.skillName, "md")),
        "Cache-Control": "no-store",
        // The text is the user's: never let a browser guess it is HTML.
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return notFound("no such skill version");
    throw error;
  }
}
