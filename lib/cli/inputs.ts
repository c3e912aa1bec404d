import { existsSync, statSync } from "node:fs";
import { basename, extname } from "node:path";
import { detectFormat, sha256File, streamDatasetFile } from "../datasets";
import {
  addSkillVersion, deleteDataset, findDatasetByFile, findDatasetByHash, getDataset, getSkillVersion, importDatasetBatches, type AddSkillVersionResult,
  type DatasetRecord, type Db,
} from "../db";
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

/**
 * Streams the file into the database as it is read (the items are never all in memory); any item that is wrong, however
 * late in the file, leaves nothing stored.
 */
export async function importDatasetFile(db: Db, path: string, name?: string, fileSha256?: string): Promise<DatasetRecord> {
  if (!isFile(path)) throw new CliInputError(`${path}: no such file`);
  return importDatasetBatches(
    db,
    { name: name ?? nameFromPath(path), fileName: basename(path), format: detectFormat(path), fileSha256: fileSha256 ?? (await sha256File(path)) },
    streamDatasetFile(path),
  );
}

export function addSkillFile(db: Db, path: string, name?: string, note?: string): Promise<AddSkillVersionResult> {
  return addSkillVersion(db, { name: name ?? nameFromPath(path), content: readTextFile(path), note });
}

/** `--dataset FILE|ID`: a file is imported, or reused when the same items were imported before. */
export async function resolveDataset(db: Db, value: string, notice: (line: string) => void = logLine): Promise<DatasetRecord> {
  if (!isFile(value)) return getDataset(db, parseId("dataset", value));
  const reuse = (existing: DatasetRecord) => {
    notice(`dataset ${existing.id} ("${existing.name}") has the same items as ${value}; using it`);
    return existing;
  };
  // The same bytes read as the same format are the same items: found without reading the file's items at all.
  const fileSha256 = await sha256File(value);
  const sameFile = await findDatasetByFile(db, fileSha256, detectFormat(value));
  if (sameFile) return reuse(sameFile);
  const dataset = await importDatasetFile(db, value, undefined, fileSha256);
  // The same items from another file (another format, other formatting): the earlier dataset is kept, this one dropped.
  const sameItems = await findDatasetByHash(db, dataset.hash);
  if (sameItems && sameItems.id !== dataset.id) {
    await deleteDataset(db, dataset.id);
    return reuse(sameItems);
  }
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
