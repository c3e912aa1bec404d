/**
 * Reads an id manifest in SkillOpt's `split_dir` layout (`train/items.json`, `val/items.json`, `test/items.json`, as in
 * its data/searchqa_id_split/): in each part's folder the file upstream's `load_split_items` reads, parsed. Errors name
 * the folder or file, and the line of a JSON syntax error; the ids themselves are checked by `manifestSplit`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { manifestSplit, pickSplitFile, SPLIT_NAMES, SplitManifestError, type ManifestPart, type SplitIds, type SplitName } from "../optimize/splits";
import { DatasetValidationError } from "./errors";
import { scanJson } from "./json-scan";
import { lineAndColumnAt, linesAtOffsets } from "./text-lines";

/** A manifest folder read from disk: what `manifestSplit` takes, plus where each item of each file starts. */
export interface SplitManifest {
  parts: Record<SplitName, ManifestPart>;
  /** 1-based line of each item of each part's file, for messages. */
  itemLines: Record<SplitName, number[]>;
}

export function readSplitManifest(dir: string): SplitManifest {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new DatasetValidationError(dir, [{ message: "no such directory" }]);
  const parts = {} as Record<SplitName, ManifestPart>;
  const itemLines = {} as Record<SplitName, number[]>;
  for (const name of SPLIT_NAMES) {
    const folder = join(dir, name);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      // upstream's words (_load_all_splits)
      throw new DatasetValidationError(dir, [{ message: `Missing '${name}/' subdirectory in split_dir (expected ${SPLIT_NAMES.map((n) => `${n}/`).join(", ")})` }]);
    }
    const fileName = pickSplitFile(readdirSync(folder));
    if (fileName === undefined) throw new DatasetValidationError(folder, [{ message: "No .json file found (upstream reads the first *.json file in sorted order)" }]);
    const file = join(folder, fileName);
    const text = readFileSync(file, "utf8");
    const scan = scanJson(text);
    if (scan.syntaxProblem) {
      const { line, column } = lineAndColumnAt(text, scan.syntaxProblem.offset);
      throw new DatasetValidationError(file, [{ line, message: `invalid JSON at column ${column}: ${scan.syntaxProblem.message}` }]);
    }
    parts[name] = { file, json: JSON.parse(text) as unknown };
    itemLines[name] = linesAtOffsets(text, scan.itemOffsets ?? []);
  }
  return { parts, itemLines };
}

/** `manifestSplit` on a manifest read from disk, its issues given the line of the item they are about. */
export function splitByManifest(manifest: SplitManifest, datasetIds: readonly string[]): SplitIds {
  try {
    return manifestSplit(manifest.parts, datasetIds);
  } catch (error) {
    if (error instanceof DatasetValidationError) throw withLines(error, manifest);
    if (error instanceof SplitManifestError) throw new SplitManifestError(error.failures.map((failure) => withLines(failure, manifest)));
    throw error;
  }
}

function withLines(error: DatasetValidationError, manifest: SplitManifest): DatasetValidationError {
  const name = SPLIT_NAMES.find((part) => manifest.parts[part].file === error.file);
  if (name === undefined) return error;
  const lines = manifest.itemLines[name];
  const issues = error.issues.map((issue) => (issue.item !== undefined && lines[issue.item - 1] !== undefined ? { ...issue, line: lines[issue.item - 1] } : issue));
  return new DatasetValidationError(error.file, issues, error.omittedIssueCount);
}
