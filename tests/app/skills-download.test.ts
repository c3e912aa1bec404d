// GET /skills/:id/versions/:versionId/download: the exact text as a markdown attachment, 404 for a version that is
// not the skill's (a malformed id is a 400 before this: http-edge.test.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HttpError } from "@/app/_lib/http";
import { skillDownloadResponse } from "@/app/skills/[id]/versions/[versionId]/download/skill-download";
import { downloadFileName } from "@/lib/export/file-names";
import { addSkillVersion } from "@/lib/db";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

describe("skill download", () => {
  it("serves the version's text with a markdown type and an attachment file name", async () => {
    const text = "# Ünïcode skill\n<script>alert(1)</script>\n";
    const { version } = await addSkillVersion(t.db, { name: "Search QA (v2)!", content: text });
    const response = await skillDownloadResponse(t.db, { id: version.skillId, versionId: version.id });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="skillboard-skill-${version.id}-search-qa-v2.md"`);
    expect(await response.text()).toBe(text);
  });

  it("answers 404 for an unknown version or a version of another skill", async () => {
    const a = (await addSkillVersion(t.db, { name: "a", content: "A" })).version;
    const b = (await addSkillVersion(t.db, { name: "b", content: "B" })).version;
    for (const params of [
      { id: a.skillId, versionId: 999 },
      { id: a.skillId, versionId: b.id },
      { id: 999, versionId: a.id },
    ]) {
      const error = await skillDownloadResponse(t.db, params).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 404, message: "no such skill version" });
    }
  });

  it("makes file-name slugs that are safe and never empty", () => {
    expect(downloadFileName("skill", 3, "Café Ölçü — QA", "md")).toBe("skillboard-skill-3-cafe-olcu-qa.md");
    expect(downloadFileName("skill", 3, '../../etc/"passwd"', "md")).toBe("skillboard-skill-3-etc-passwd.md");
    expect(downloadFileName("skill", 3, "问答", "md")).toBe("skillboard-skill-3-skill.md");
  });
});
