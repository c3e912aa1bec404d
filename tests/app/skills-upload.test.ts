// The skill upload behind the /skills form's server action: validation errors store nothing, a new text
// becomes the next version, the same text again is reported as unchanged.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uploadSkill } from "@/app/skills/upload-skill";
import { listSkillVersions } from "@/lib/db";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

describe("uploadSkill", () => {
  it("refuses empty text and stores nothing", async () => {
    const result = await uploadSkill(t.db, form({ name: "searchqa", content: "  \n\t " }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fields?.content).toMatch(/empty/);
    expect(result.error).toMatch(/^Nothing was stored/);
    expect(await listSkillVersions(t.db)).toHaveLength(0);
  });

  it("refuses a missing name, a wrong extension and text over 1 MB", async () => {
    const noName = await uploadSkill(t.db, form({ name: "  ", content: "# Skill" }));
    expect(!noName.ok && noName.fields?.name).toMatch(/name/);

    const wrongExtension = await uploadSkill(t.db, form({ name: "s", content: "# Skill", fileName: "skill.pdf" }));
    expect(!wrongExtension.ok && wrongExtension.fields?.fileName).toMatch(/skill\.pdf.*\.md or \.txt/);

    const tooLarge = await uploadSkill(t.db, form({ name: "s", content: "x".repeat(1024 * 1024 + 1), fileName: "big.md" }));
    expect(!tooLarge.ok && tooLarge.fields?.content).toMatch(/1\.0 MB; a skill document can be at most 1\.0 MB/);

    expect(await listSkillVersions(t.db)).toHaveLength(0);
  });

  it("refuses a file that is not UTF-8 (as datasets are refused) instead of storing replacement characters", async () => {
    const data = form({ name: "latin1", fileName: "latin1.md" });
    data.set("content", new Blob([Buffer.from("# Compétences\nRéponds en français.\n", "latin1")]));
    const state = await uploadSkill(t.db, data);
    expect(state.ok).toBe(false);
    expect(!state.ok && state.fields?.content).toBe("latin1.md is not valid UTF-8 text (save it as UTF-8).");
    expect(await listSkillVersions(t.db)).toHaveLength(0);
  });

  it("stores new text as the next version, with its note", async () => {
    const first = await uploadSkill(t.db, form({ name: "searchqa", content: "# v1\n", fileName: "searchqa.md" }));
    expect(first).toMatchObject({ ok: true, data: { outcome: "created", version: 1, skillName: "searchqa" }, message: "Stored version 1 of “searchqa”." });
    const second = await uploadSkill(t.db, form({ name: " searchqa ", content: "# v2\n", note: "  stricter answers " }));
    expect(second).toMatchObject({ ok: true, data: { outcome: "created", version: 2 } });
    const versions = await listSkillVersions(t.db);
    expect(versions.map((v) => [v.version, v.note])).toEqual([
      [1, null],
      [2, "stricter answers"],
    ]);
  });

  it("reports the same text again as unchanged and stores nothing", async () => {
    await uploadSkill(t.db, form({ name: "searchqa", content: "# v1\n" }));
    await uploadSkill(t.db, form({ name: "searchqa", content: "# v2\n" }));
    const again = await uploadSkill(t.db, form({ name: "searchqa", content: "# v2\n", note: "retry" }));
    expect(again).toMatchObject({ ok: true, data: { outcome: "unchanged", version: 2 }, message: "Unchanged: this text is already version 2 of “searchqa”." });
    expect(await listSkillVersions(t.db)).toHaveLength(2);
  });

  it("reads the text from a Blob (how the form sends it, so line breaks arrive unchanged)", async () => {
    const data = form({ name: "blob-skill", fileName: "skill.md" });
    data.set("content", new Blob(["# Skill\r\nrule\n"]), "skill.md");
    expect(await uploadSkill(t.db, data)).toMatchObject({ ok: true, data: { outcome: "created", version: 1 } });
    expect((await t.db.skillVersion.findFirst())?.content).toBe("# Skill\r\nrule\n");

    const big = form({ name: "blob-skill" });
    big.set("content", new Blob([new Uint8Array(3 * 1024 * 1024)]), "big.md");
    const tooLarge = await uploadSkill(t.db, big);
    expect(!tooLarge.ok && tooLarge.fields?.content).toBe("The skill text is 3.0 MB; a skill document can be at most 1.0 MB.");
  });

  it("keeps the text exactly as sent (no trimming), since the hash and the prompt depend on it", async () => {
    const text = "\n# Skill\r\n\nRule one.  \n";
    await uploadSkill(t.db, form({ name: "exact", content: text }));
    const [version] = await t.db.skillVersion.findMany();
    expect(version?.content).toBe(text);
  });
});
