import { createHash } from "node:crypto";
import { lstat, mkdir, open, readdir, realpath, rm, stat, writeFile } from "node:fs/promises";
import { join, sep } from "node:path";
import { isSafeRelativePath } from "./safe-path";
import { SKILL_DIR, SKILL_FILE, TASK_FILE } from "./skill-md";

/**
 * Where agent runs keep their files: `<data dir>/runs/<run id>/` (the data dir being the folder of the SQLite
 * file), holding the prompt file and `workspaces/<item>/`, one workspace per item.
 */
export function runDirectory(dataDir: string, runId: number): string {
  return join(dataDir, "runs", String(runId));
}

export function workspacesDirectory(dataDir: string, runId: number): string {
  return join(runDirectory(dataDir, runId), "workspaces");
}

export function itemWorkspaceDirectory(dataDir: string, runId: number, itemId: string): string {
  return join(workspacesDirectory(dataDir, runId), workspaceDirName(itemId));
}

/** Where the process group of the item's running agent is recorded (lib/agent/agent-group-file.ts). */
export function itemAgentGroupFile(dataDir: string, runId: number, itemId: string): string {
  return join(runDirectory(dataDir, runId), "agent-groups", workspaceDirName(itemId));
}

/** The file `{promptFile}` names: the agent prompt, the same for every item of a run. */
export function promptFilePath(dataDir: string, runId: number): string {
  return join(runDirectory(dataDir, runId), "agent-prompt.md");
}

const PLAIN_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/**
 * A folder name for an item id, distinct for distinct ids on any filesystem: an id that is already a plain
 * lower-case name is used as it is; any other gets a readable part plus "+" and a hash of the id. Plain names
 * never contain "+", so the two kinds cannot meet, and upper case never survives (case-insensitive disks).
 */
export function workspaceDirName(itemId: string): string {
  if (PLAIN_NAME.test(itemId)) return itemId;
  const readable = itemId.toLowerCase().replace(/[^a-z0-9._-]+/g, "_").replace(/^[._-]+/, "").slice(0, 60);
  return `${readable}+${createHash("sha256").update(itemId).digest("hex").slice(0, 16)}`;
}

export interface PrepareWorkspaceInput {
  dir: string;
  skillMd: string;
  taskText: string;
  /** Folders (relative to the workspace) that also get the SKILL.md, for agents that look elsewhere. */
  skillCopies?: readonly string[];
}

/**
 * The seed's prepare_workspace: the folder is removed if it exists and made afresh, with the skill at
 * `.agents/skills/skillopt-target/SKILL.md` and `task.md` (written only when the task text is non-empty).
 */
export async function prepareWorkspace(input: PrepareWorkspaceInput): Promise<void> {
  await rm(input.dir, { recursive: true, force: true });
  await mkdir(join(input.dir, SKILL_DIR), { recursive: true });
  await writeFile(join(input.dir, SKILL_FILE), input.skillMd);
  for (const copy of input.skillCopies ?? []) {
    if (!isSafeRelativePath(copy)) throw new Error(`skill copy "${copy}" is not a path inside the workspace`);
    await mkdir(join(input.dir, copy), { recursive: true });
    await writeFile(join(input.dir, copy, "SKILL.md"), input.skillMd);
  }
  if (input.taskText) await writeFile(join(input.dir, TASK_FILE), input.taskText);
}

export interface WorkspaceEntry {
  /** Relative to the workspace, "/"-separated. */
  path: string;
  kind: "file" | "directory" | "symlink" | "other";
  size: number;
}

/** The workspace's files in path order (read breadth-first, so a deep tree cannot hide the top), without following links; at most `maxEntries`. */
export async function listWorkspaceFiles(dir: string, maxEntries = 500): Promise<{ entries: WorkspaceEntry[]; truncated: boolean } | null> {
  if (!(await stat(dir).catch(() => null))?.isDirectory()) return null;
  const entries: WorkspaceEntry[] = [];
  const queue = [""];
  while (queue.length > 0) {
    const relative = queue.shift()!;
    const names = (await readdir(join(dir, relative)).catch(() => [] as string[])).sort();
    for (const name of names) {
      if (entries.length >= maxEntries) return { entries: entries.sort(byPath), truncated: true };
      const path = relative ? `${relative}/${name}` : name;
      const info = await lstat(join(dir, path)).catch(() => null);
      if (!info) continue;
      const kind = info.isSymbolicLink() ? "symlink" : info.isDirectory() ? "directory" : info.isFile() ? "file" : "other";
      entries.push({ path, kind, size: kind === "file" ? info.size : 0 });
      if (kind === "directory") queue.push(path);
    }
  }
  return { entries: entries.sort(byPath), truncated: false };
}

const byPath = (a: WorkspaceEntry, b: WorkspaceEntry) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export interface WorkspaceFile {
  size: number;
  /** The first `maxBytes` bytes. */
  content: Buffer;
  truncated: boolean;
  /** Valid UTF-8 without NUL bytes (in what was read). */
  isText: boolean;
}

/**
 * A regular file inside the workspace, for viewing. The path must be relative and plain, and once symbolic
 * links are resolved it must still lie inside the workspace: nothing outside it can ever be read.
 */
export async function readWorkspaceFile(dir: string, relativePath: string, maxBytes: number): Promise<WorkspaceFile | null> {
  if (!isSafeRelativePath(relativePath)) return null;
  const root = await realpath(dir).catch(() => null);
  if (!root) return null;
  const target = await realpath(join(root, relativePath)).catch(() => null);
  if (!target || !target.startsWith(root + sep)) return null;
  const handle = await open(target, "r").catch(() => null);
  if (!handle) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    const length = Math.min(info.size, maxBytes);
    const content = Buffer.alloc(length);
    const { bytesRead } = await handle.read(content, 0, length, 0);
    const read = content.subarray(0, bytesRead);
    return { size: info.size, content: read, truncated: info.size > bytesRead, isText: looksLikeText(read, info.size > bytesRead) };
  } finally {
    await handle.close();
  }
}

function looksLikeText(bytes: Buffer, truncated: boolean): boolean {
  if (bytes.includes(0)) return false;
  try {
    // A cut may split a character: only the end of a truncated read may be incomplete.
    new TextDecoder("utf-8", { fatal: true }).decode(truncated ? bytes.subarray(0, Math.max(0, bytes.length - 3)) : bytes);
    return true;
  } catch {
    return false;
  }
}

/** Deletes every workspace of the run (its prompt file stays). */
export async function removeRunWorkspaces(dataDir: string, runId: number): Promise<void> {
  await rm(workspacesDirectory(dataDir, runId), { recursive: true, force: true });
}

export async function removeWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
