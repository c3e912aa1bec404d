import { existsSync, statSync } from "node:fs";
import { basename, extname } from "node:path";
import { detectFormat, hashDatasetItems, parseDatasetFile, sha256File } from "../datasets";
import { addSkillVersion, findDatasetByHash, getDataset, getSkillVersion, importDataset, type AddSkillVersionResult, type DatasetRecord, type Db } from "../db";
import { readTextFile } from "./commands/prompt";
import { CliInputError, logLine } from "./io";

export function nameFromPath(path: string): string {
  return basename(path, extname(path));
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function parseId(kind: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new CliInputError(`--${kind}: "${value}" is neither a readable file nor a ${kind} id`);
  return Number(value);
}

/** Validates the whole file first; stores nothing if any item is wrong. */
export async function importDatasetFile(db: Db, path: string, name?: string): Promise<DatasetRecord> {
  if (!isFile(path)) throw new CliInputError(`${path}: no such file`);
  const items = await parseDatasetFile(path);
  const fileSha256 = await sha256File(path);
  return importDataset(db, { name: name ?? nameFromPath(path), fileName: basename(path), format: detectFormat(path), hash: await hashDatasetItems(items), fileSha256, items });
}

export function addSkillFile(db: Db, path: string, name?: string, note?: string): Promise<AddSkillVersionResult> {
  return addSkillVersion(db, { name: name ?? nameFromPath(path), content: readTextFile(path), note });
}

/** `--dataset FILE|ID`: a file is imported, or reused when the same items were imported before. */
export async function resolveDataset(db: Db, value: string, notice: (line: string) => void = logLine): Promise<DatasetRecord> {
  if (!isFile(value)) return getDataset(db, parseId("dataset", value));
  const items = await parseDatasetFile(value);
  const existing = await findDatasetByHash(db, await hashDatasetItems(items));
  if (existing) {
    notice(`dataset ${existing.id} ("${existing.name}") has the same items as ${value}; using it`);
    return existing;
  }
  const fileSha256 = await sha256File(value);
  const dataset = await importDataset(db, { name: nameFromPath(value), fileName: basename(value), format: detectFormat(value), hash: await hashDatasetItems(items), fileSha256, items });
  notice(`imported ${value} as dataset ${dataset.id} (${dataset.itemCount} items)`);
  return dataset;
}

/** `--skill FILE|ID`: a file becomes a version of the skill named after it (or the existing identical version). */
export async function resolveSkillVersion(db: Db, value: string, notice: (line: string) => void = logLine): Promise<{ id: number; label: string }> {
  if (!isFile(value)) {
    const version = await getSkillVersion(db, parseId("skill", value));
    return { id: version.id, label: `${version.skillName} v${version.version}` };
  }
  const { version, created } = await addSkillFile(db, value);
  notice(`${created ? "stored" : "using"} ${value} as skill "${version.skillName}" v${version.version} (id ${version.id})`);
  return { id: version.id, label: `${version.skillName} v${version.version}` };
}
