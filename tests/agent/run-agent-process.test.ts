// One agent invocation as a process: its own group with the workspace as working directory, the whole group
// killed when it exits, times out or is aborted (no process left behind), and output kept within the cap.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CappedOutput, runAgentProcess, type RunAgentProcessOptions } from "@/lib/agent";
import { AGENTS_DIR, allGone, readPids } from "../support/agents";

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "skillboard-ws-"));
  mkdirSync(join(workspace, ".agents/skills/skillopt-target"), { recursive: true });
  writeFileSync(join(workspace, ".agents/skills/skillopt-target/SKILL.md"), '---\nname: "skillopt-target"\n---\n');
  writeFileSync(join(workspace, "task.md"), "## Context\n[DOC] [TLE] Rome [PAR] The capital.\n\n## Question\nWhich city?");
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const run = (script: string, options: Partial<RunAgentProcessOptions> = {}) =>
  runAgentProcess({
    argv: [process.execPath, join(AGENTS_DIR, script), ...(options.argv ?? [])],
    cwd: workspace,
    env: { PATH: process.env.PATH ?? "" },
    timeoutMs: 10_000,
    outputCapBytes: 1024 * 1024,
    ...options,
    ...(options.argv ? { argv: [process.execPath, join(AGENTS_DIR, script), ...options.argv] } : {}),
  });

describe("runAgentProcess", () => {
  it("runs in the workspace and captures stdout, stderr and the exit code", async () => {
    const result = await run("answer-from-context.mjs");
    expect(result).toMatchObject({ outcome: "exited", exitCode: 0, exitSignal: null });
    expect(result.stdout.text).toBe("Reading the skill and the task…\n<answer>Rome</answer>\n");
    expect(JSON.parse(result.stderr.text)).toMatchObject({ cwd: workspace, env: ["PATH"] });
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it("reports a non-zero exit with its stderr", async () => {
    const result = await run("fail.mjs");
    expect(result).toMatchObject({ outcome: "exited", exitCode: 3 });
    expect(result.stderr.text).toBe("warming up\nfatal: the model refused the request\n");
  });

  it("kills a child the agent left behind when the agent exits", async () => {
    const result = await run("spawn-child.mjs");
    expect(result).toMatchObject({ outcome: "exited", exitCode: 0 });
    const [child] = await readPids(join(workspace, "child.pid"));
    expect(await allGone([child!])).toBe(true);
  });

  it("kills the whole group at the timeout", async () => {
    const started = Date.now();
    const result = await run("hang.mjs", { timeoutMs: 700 });
    expect(result.outcome).toBe("timeout");
    expect(result.exitSignal).toBe("SIGKILL");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await allGone(await readPids(join(workspace, "pids.txt")))).toBe(true);
    expect(result.stdout.text).toBe("thinking forever\n");
  });

  it("kills the whole group on abort, reporting what was captured at once", async () => {
    const controller = new AbortController();
    let snapshot: string | undefined;
    const running = run("hang.mjs", { signal: controller.signal, onAborted: (s) => void (snapshot = s.stdout.text) });
    const pids = await readPids(join(workspace, "pids.txt"));
    // The agent printed its line before it wrote pids.txt; one turn of the event loop (setImmediate runs after the
    // I/O poll) lets this process read it from the pipe.
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error("cancelled"));
    expect(snapshot).toBe("thinking forever\n");
    const result = await running;
    expect(result.outcome).toBe("aborted");
    expect(await allGone(pids)).toBe(true);
  });

  it("keeps at most the cap of a flood, beginning and end, and says how much was left out", async () => {
    const result = await run("flood.mjs", { outputCapBytes: 1024 * 1024 });
    expect(result.exitCode).toBe(0);
    for (const stream of [result.stdout, result.stderr]) {
      expect(stream.truncated).toBe(true);
      expect(stream.bytes).toBeGreaterThanOrEqual(4 * 1024 * 1024);
      expect(Buffer.byteLength(stream.head) + Buffer.byteLength(stream.tail)).toBe(1024 * 1024);
      expect(stream.text).toMatch(/\[… \d+ bytes left out: output over 1048576 bytes …\]/);
    }
    expect(result.stdout.tail.endsWith("<answer>flooded</answer>\n")).toBe(true);
  });

  it("reports a program that cannot start", async () => {
    const result = await runAgentProcess({ argv: ["skillboard-no-such-program"], cwd: workspace, env: { PATH: "/usr/bin" }, timeoutMs: 5000, outputCapBytes: 1024 });
    expect(result.outcome).toBe("spawn-error");
    expect(result.error).toMatch(/ENOENT/);
  });

  it("writes the prompt to stdin when asked", async () => {
    const result = await runAgentProcess({
      argv: [process.execPath, "-e", "process.stdin.pipe(process.stdout)"],
      cwd: workspace, env: {}, stdin: "hello agent", timeoutMs: 5000, outputCapBytes: 1024,
    });
    expect(result.stdout.text).toBe("hello agent");
  });
});

describe("CappedOutput", () => {
  it("keeps everything under the cap and head + tail over it", () => {
    const out = new CappedOutput(16);
    out.push(Buffer.from("abcdefgh"));
    expect(out.snapshot()).toMatchObject({ text: "abcdefgh", truncated: false, bytes: 8 });
    out.push(Buffer.from("ijklmnopqrstuvwxyz"));
    const snap = out.snapshot();
    expect(snap).toMatchObject({ head: "abcd", tail: "opqrstuvwxyz", truncated: true, bytes: 26 });
    expect(snap.text).toBe("abcd\n[… 10 bytes left out: output over 16 bytes …]\nopqrstuvwxyz");
    const big = new CappedOutput(16);
    big.push(Buffer.from("0123456789".repeat(5)));
    expect(big.snapshot()).toMatchObject({ head: "0123", tail: "890123456789" });
  });
});
