/**
 * A SkillOpt output directory uploaded as a .zip (the Optimise page's import form): unpacked into a temporary folder
 * with bounds on its entries and their unpacked size, then imported exactly as `optimize import DIR` imports a
 * directory (skillopt-import.ts), and the folder removed. The directory may be the zip's root or its only top-level
 * folder (`zip -r out.zip out/`). Every error names the zip file and, for a file inside it, that file; nothing is stored
 * unless the import succeeds (the import undoes itself on failure).
 *
 * yauzl reads the zip: it refuses entry names that are absolute or climb out with "..", and checks each entry's
 * declared size against what it inflates to.
 */
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import yauzl from "yauzl";
import type { Db } from "../db";
import { importSkillOptDir, type ImportedOptimization } from "./skillopt-import";
import { SkillOptImportError } from "./skillopt-read";

export interface ZipLimits {
  maxEntries: number;
  maxUnpackedBytes: number;
}

export const ZIP_LIMITS: ZipLimits = { maxEntries: 20_000, maxUnpackedBytes: 500 * 1024 * 1024 };

export class SkillOptZipError extends Error {
  constructor(readonly zipName: string, message: string) {
    super(`${zipName}: ${message}`);
    this.name = "SkillOptZipError";
  }
}

/**
 * Imports the zip's SkillOpt directory; the skill is named `name`, or after the zip file without ".zip". The zip is in
 * memory or, for a large upload streamed to disk (POST /api/optimizations/import), a file read where it lies.
 */
export async function importSkillOptZip(db: Db, zip: Buffer | { path: string }, zipName: string, options: { name?: string; limits?: ZipLimits } = {}): Promise<ImportedOptimization> {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-skillopt-zip-"));
  try {
    await unpack(zip, zipName, dir, options.limits ?? ZIP_LIMITS);
    const root = outputRoot(dir, zipName);
    const name = options.name?.trim() || zipName.replace(/\.zip$/i, "").trim() || undefined;
    try {
      return await importSkillOptDir(db, root, { name, sourceName: zipName });
    } catch (error) {
      if (error instanceof SkillOptImportError) throw new SkillOptZipError(zipName, error.message);
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The folder holding history.json: the zip's root, or its only top-level folder (macOS's __MACOSX aside). */
function outputRoot(dir: string, zipName: string): string {
  if (existsSync(join(dir, "history.json"))) return dir;
  const folders = readdirSync(dir).filter((name) => name !== "__MACOSX" && statSync(join(dir, name)).isDirectory());
  if (folders.length === 1 && existsSync(join(dir, folders[0]!, "history.json"))) return join(dir, folders[0]!);
  throw new SkillOptZipError(zipName, "no history.json at its top or in its only folder: not a zip of a SkillOpt output directory");
}

async function unpack(zip: Buffer | { path: string }, zipName: string, dir: string, limits: ZipLimits): Promise<void> {
  let file: yauzl.ZipFile;
  const options = { lazyEntries: true, validateEntrySizes: true, decodeStrings: true };
  try {
    file = Buffer.isBuffer(zip) ? await yauzl.fromBufferPromise(zip, options) : await yauzl.openPromise(zip.path, { ...options, autoClose: false });
  } catch (error) {
    throw new SkillOptZipError(zipName, `not a readable zip file (${(error as Error).message})`);
  }
  if (file.entryCount > limits.maxEntries) throw new SkillOptZipError(zipName, `${file.entryCount} entries: more than the ${limits.maxEntries} allowed`);
  let unpacked = 0;
  try {
    for await (const entry of file.eachEntry()) {
      if (entry.fileName.endsWith("/")) continue;
      if (unpacked + entry.uncompressedSize > limits.maxUnpackedBytes) throw new SkillOptZipError(zipName, `unpacks to more than ${limits.maxUnpackedBytes / 1024 / 1024} MB`);
      const target = join(dir, entry.fileName);
      mkdirSync(dirname(target), { recursive: true });
      let written = 0;
      // Counted as it inflates too: the sizes a zip declares are its author's word.
      const bound = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          written += chunk.length;
          done(unpacked + written > limits.maxUnpackedBytes ? new SkillOptZipError(zipName, `unpacks to more than ${limits.maxUnpackedBytes / 1024 / 1024} MB`) : null, chunk);
        },
      });
      try {
        await pipeline(await file.openReadStreamPromise(entry), bound, createWriteStream(target));
      } catch (error) {
        if (error instanceof SkillOptZipError) throw error;
        throw new SkillOptZipError(zipName, `${entry.fileName}: cannot be unpacked (${(error as Error).message})`);
      }
      unpacked += written;
    }
  } catch (error) {
    if (error instanceof SkillOptZipError) throw error;
    throw new SkillOptZipError(zipName, `not a readable zip file (${(error as Error).message})`);
  } finally {
    file.close();
  }
}
