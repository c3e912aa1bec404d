import { z } from "zod";
import { HttpError } from "@/app/_lib/http";
import { SkillIdSchema, SkillVersionIdSchema } from "@/app/_lib/ids";
import { getSkillVersion, NotFoundError, type Db } from "@/lib/db";
import { attachmentDisposition, downloadFileName } from "@/lib/export/file-names";

/** Where a version's .md download is served. */
export function skillDownloadPath(version: { skillId: number; id: number }): string {
  return `/skills/${version.skillId}/versions/${version.id}/download`;
}

/** The path parameters of /skills/[id]/versions/[versionId]/download. */
export const SkillVersionParamsSchema = z.object({ id: SkillIdSchema, versionId: SkillVersionIdSchema });

const NO_SUCH_VERSION = "no such skill version";

/**
 * A skill version's exact text as a markdown attachment. The version must belong to the skill in the path, so a URL
 * never serves another skill's text under this skill's name: an HttpError 404 otherwise.
 */
export async function skillDownloadResponse(db: Db, params: { id: number; versionId: number }): Promise<Response> {
  const version = await getSkillVersion(db, params.versionId).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new HttpError(404, NO_SUCH_VERSION) : error;
  });
  if (version.skillId !== params.id) throw new HttpError(404, NO_SUCH_VERSION);
  return new Response(version.content, {
    headers: {
      "Content-Type": "text/markdown; charset=utf-8",
      "Content-Disposition": attachmentDisposition(downloadFileName("skill", version.id, version.skillName, "md")),
      "Cache-Control": "no-store",
      // The text is the user's: never let a browser guess it is HTML.
      "X-Content-Type-Options": "nosniff",
    },
  });
}
