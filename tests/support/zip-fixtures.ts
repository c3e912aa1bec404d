/**
 * Zip files for the SkillOpt import tests, written by Python's zipfile (deflated), as a person's `zip -r` or an
 * archive tool would make them: a directory under a folder or at the root, extra or replaced files, hostile names.
 */
import { spawnSync } from "node:child_process";

const SCRIPT = `
import io, json, os, sys, zipfile
spec = json.load(sys.stdin)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    if spec["dir"]:
        for root, _, files in os.walk(spec["dir"]):
            for name in sorted(files):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, spec["dir"]).replace(os.sep, "/")
                if rel in spec["replace"]:
                    continue
                z.write(path, spec["prefix"] + rel)
    for name, text in spec["replace"].items():
        z.writestr(spec["prefix"] + name, text)
    for name, text in spec["extra"].items():
        z.writestr(name, text)
    for name, size in spec["random"].items():
        z.writestr(name, os.urandom(size))
sys.stdout.buffer.write(buf.getvalue())
`;

export interface ZipSpec {
  /** A directory to zip, walked recursively. */
  dir?: string;
  /** Put before every path of `dir` (e.g. "skillopt-output/"); "" zips its files at the root. */
  prefix?: string;
  /** Files of `dir` written with other text instead (paths relative to `dir`). */
  replace?: Record<string, string>;
  /** More entries, at these exact names. */
  extra?: Record<string, string>;
  /** Entries of this many random bytes (they do not compress: a zip over a size limit). */
  random?: Record<string, number>;
}

export function makeZip(spec: ZipSpec): Buffer {
  const input = JSON.stringify({ dir: spec.dir ?? null, prefix: spec.prefix ?? "", replace: spec.replace ?? {}, extra: spec.extra ?? {}, random: spec.random ?? {} });
  const result = spawnSync("python3", ["-c", SCRIPT], { input, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`python3 zipfile failed: ${result.stderr.toString()}`);
  return result.stdout;
}
