import { createHash } from "node:crypto";
import type { Db } from "./client";
import { NotFoundError } from "./errors";

export interface SkillVersionRecord {
  id: number;
  skillId: number;
  skillName: string;
  version: number;
  content: string;
  hash: string;
  note: string | null;
  sizeBytes: number;
  createdAt: Date;
}

export interface AddSkillVersionResult {
  version: SkillVersionRecord;
  /** false when the same text was already a version of this skill (nothing was stored). */
  created: boolean;
}

export function hashSkillContent(content: string): string {
  return createHash("sha256").update(content, "utf8").digest("hex");
}

/** Stores `content` as the next version of skill `name` (creating the skill), unless that text is already a version of it. */
export async function addSkillVersion(
  db: Db,
  input: { name: string; content: string; note?: string | null },
): Promise<AddSkillVersionResult> {
  const name = input.name.trim();
  if (!name) throw new Error("skill name must not be empty");
  const hash = hashSkillContent(input.content);
  return db.$transaction(async (tx) => {
    const skill = await tx.skill.upsert({ where: { name }, create: { name }, update: {} });
    const existing = await tx.skillVersion.findUnique({ where: { skillId_hash: { skillId: skill.id, hash } } });
    if (existing) return { version: { ...existing, skillName: skill.name }, created: false };
    const latest = await tx.skillVersion.findFirst({ where: { skillId: skill.id }, orderBy: { version: "desc" } });
    const version = await tx.skillVersion.create({
      data: {
        skillId: skill.id,
        version: (latest?.version ?? 0) + 1,
        content: input.content,
        hash,
        note: input.note?.trim() || null,
        sizeBytes: Buffer.byteLength(input.content, "utf8"),
      },
    });
    return { version: { ...version, skillName: skill.name }, created: true };
  });
}

export async function getSkillVersion(db: Db, id: number): Promise<SkillVersionRecord> {
  const row = await db.skillVersion.findUnique({ where: { id }, include: { skill: true } });
  if (!row) throw new NotFoundError("skill version", id);
  const { skill, ...version } = row;
  return { ...version, skillName: skill.name };
}

/** Every version of every skill, without their text. */
export async function listSkillVersions(db: Db): Promise<Omit<SkillVersionRecord, "content">[]> {
  const rows = await db.skillVersion.findMany({
    omit: { content: true },
    include: { skill: { select: { name: true } } },
    orderBy: [{ skillId: "asc" }, { version: "asc" }],
  });
  return rows.map(({ skill, ...version }) => ({ ...version, skillName: skill.name }));
}
