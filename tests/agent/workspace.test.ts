// The workspace of an item: the seed's layout byte for byte, distinct folder names for distinct item ids,
// and file reads that can never leave the workspace.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  buildAgentSkillMd, isSafeRelativePath, itemWorkspaceDirectory, listWorkspaceFiles, prepareWorkspace, readWorkspaceFile, workspaceDirName,
} from "@/lib/agent";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skillboard-ws-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");

describe("prepareWorkspace", () => {
  it("writes the seed's layout: SKILL.md under .agents/skills/skillopt-target and task.md", async () => {
    const ws = join(dir, "ws");
    const skillMd = buildAgentSkillMd(fixture("skills/searchqa-trained.md"));
    await prepareWorkspace({ dir: ws, skillMd, taskText: "## Context\nc\n\n## Question\nq" });
    expect(readFileSync(join(ws, ".agents/skills/skillopt-target/SKILL.md"), "utf8")).toBe(fixture("seed/SKILL.md.trained-skill"));
    expect(readFileSync(join(ws, "task.md"), "utf8")).toBe("## Context\nc\n\n## Question\nq");
    expect(readdirSync(ws, { recursive: true }).map(String).sort()).toEqual([".agents", ".agents/skills", ".agents/skills/skillopt-target", ".agents/skills/skillopt-target/SKILL.md", "task.md"]);
  });

  it("removes what was there, writes no task.md for an empty task, and copies the skill where asked", async () => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    writeFileSync(join(ws, "old-answer.txt"), "stale");
    await prepareWorkspace({ dir: ws, skillMd: buildAgentSkillMd(""), taskText: "", skillCopies: [".claude/skills/skillopt-target"] });
    expect(existsSync(join(ws, "old-answer.txt"))).toBe(false);
    expect(existsSync(join(ws, "task.md"))).toBe(false);
    expect(readFileSync(join(ws, ".agents/skills/skillopt-target/SKILL.md"), "utf8")).toBe(fixture("seed/SKILL.md.blank-skill"));
    expect(readFileSync(join(ws, ".claude/skills/skillopt-target/SKILL.md"), "utf8")).toBe(fixture("seed/SKILL.md.blank-skill"));
  });
});

describe("workspaceDirName", () => {
  it("keeps plain ids and makes any other id safe and distinct", () => {
    expect(workspaceDirName("sq-001")).toBe("sq-001");
    expect(workspaceDirName("q0001")).toBe("q0001");
    const odd = ["../etc", "a/b", "a_b+", "Q1", "q1 ", ".hidden", "", "é", "x".repeat(300), "CON", "a\0b"];
    const names = odd.map(workspaceDirName);
    for (const name of names) {
      expect(isSafeRelativePath(name)).toBe(true);
      expect(name).toMatch(/^[a-z0-9._-]*\+[0-9a-f]{16}$/);
      expect(name.length).toBeLessThanOrEqual(100);
    }
    // Case-insensitive disks: "Q1" must not land on "q1".
    expect(new Set([...names, "q1", "a_b"].map((name) => name.toLowerCase())).size).toBe(names.length + 2);
    expect(itemWorkspaceDirectory("/data", 7, "a/b")).toMatch(/^\/data\/runs\/7\/workspaces\/a_b\+[0-9a-f]{16}$/);
  });
});

describe("reading workspace files", () => {
  it("lists files without following links, and reads only what is inside", async () => {
    const ws = join(dir, "ws");
    mkdirSync(join(ws, "sub"), { recursive: true });
    writeFileSync(join(ws, "answer.txt"), "<answer>Rome</answer>");
    writeFileSync(join(ws, "sub", "data.bin"), Buffer.from([0, 1, 2]));
    writeFileSync(join(dir, "secret.txt"), "outside");
    symlinkSync(join(dir, "secret.txt"), join(ws, "link.txt"));
    const listing = await listWorkspaceFiles(ws);
    expect(listing?.entries).toEqual([
      { path: "answer.txt", kind: "file", size: 21 },
      { path: "link.txt", kind: "symlink", size: 0 },
      { path: "sub", kind: "directory", size: 0 },
      { path: "sub/data.bin", kind: "file", size: 3 },
    ]);
    expect((await readWorkspaceFile(ws, "answer.txt", 1000))?.content.toString()).toBe("<answer>Rome</answer>");
    expect(await readWorkspaceFile(ws, "sub/data.bin", 1000)).toMatchObject({ isText: false, size: 3 });
    expect(await readWorkspaceFile(ws, "answer.txt", 5)).toMatchObject({ truncated: true, size: 21 });
    for (const escape of ["../secret.txt", "link.txt", "/etc/passwd", "sub/../../secret.txt", "sub", "./answer.txt", "missing.txt", ""]) {
      expect(await readWorkspaceFile(ws, escape, 1000)).toBeNull();
    }
    expect(await listWorkspaceFiles(join(dir, "none"))).toBeNull();
  });
});
