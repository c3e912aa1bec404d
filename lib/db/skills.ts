import { createHash } from "node:crypto";
import type { Db } from "./client";
import { NotFoundError } from "./errors";
import { meanOf } from "../runs/metrics";

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
  /** An optimisation's candidate: the version it was made from, and which optimisation and step made it. */
  parentVersionId: number | null;
  originOptimizationId: number | null;
  originStepKey: string | null;
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
  input: {
    name: string;
    content: string;
    note?: string | null;
    /** Recorded only when this call creates the version (an existing text keeps its first origin). */
    origin?: { parentVersionId: number; optimizationId: number; stepKey: string };
  },
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
        parentVersionId: input.origin?.parentVersionId ?? null,
        originOptimizationId: input.origin?.optimizationId ?? null,
        originStepKey: input.origin?.stepKey ?? null,
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

export interface SkillView {
  id: number;
  name: string;
  latestVersion: number;
  latestVersionId: number;
  latestAt: Date;
  versionCount: number;
  /** The best EM any run of any of its versions reached (over the items it scored), if any run scored items. */
  bestEm: number | null;
}

/** Skills with their latest version, number of versions and best EM, newest activity first. */
export async function listSkillViews(db: Db): Promise<SkillView[]> {
  const skills = await db.skill.findMany({
    include: {
      versions: {
        select: { id: true, version: true, createdAt: true, runs: { where: { nDone: { gt: 0 } }, select: { emSum: true, nDone: true } } },
        orderBy: { version: "desc" },
      },
    },
  });
  return skills
    .filter((skill) => skill.versions.length > 0)
    .map((skill) => {
      const latest = skill.versions[0]!;
      const ems = skill.versions.flatMap((version) => version.runs.flatMap((run) => meanOf(run.emSum, run.nDone) ?? []));
      return {
        id: skill.id,
        name: skill.name,
        latestVersion: latest.version,
        latestVersionId: latest.id,
        latestAt: latest.createdAt,
        versionCount: skill.versions.length,
        bestEm: ems.length ? Math.max(...ems) : null,
      };
    })
    .sort((a, b) => b.latestAt.getTime() - a.latestAt.getTime());
}

/** A skill and all its versions (without their text), newest first. */
export async function getSkillWithVersions(db: Db, skillId: number): Promise<{ id: number; name: string; versions: Omit<SkillVersionRecord, "content">[] }> {
  const skill = await db.skill.findUnique({
    where: { id: skillId },
    include: { versions: { omit: { content: true }, orderBy: { version: "desc" } } },
  });
  if (!skill) throw new NotFoundError("skill", skillId);
  return { id: skill.id, name: skill.name, versions: skill.versions.map((version) => ({ ...version, skillName: skill.name })) };
}
