import { getSkillVersion, NotFoundError, type Db } from "@/lib/db";
import { parsePositiveInt } from "../../../../../_components/route-params";

/** Where a version's .md download is served. */
export function skillDownloadPath(version: { skillId: number; id: number }): string {
  return `/skills/${version.skillId}/versions/${version.id}/download`;
}

/** "Search QA (v2)!" → "search-qa-v2": safe in a file name on every OS, never empty. */
export function skillFileSlug(skillName: string): string {
  const slug = skillName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || "skill";
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
    const fileName = `skillboard-skill-${version.id}-${skillFileSlug(version.skillName)}.md`;
    return new Response(version.content, {
      headers: {
        "Content-Type": "text/markdown; charset=utf-8",
        "Content-Disposition": `attachment; filename="${fileName}"`,
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
