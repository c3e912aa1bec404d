import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { forgetAgentGroup, recordAgentGroup } from "./agent-group-file";
import { CappedOutput, type CapturedText } from "./capped-output";

export interface RunAgentProcessOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to the agent's stdin, which is then closed; without it stdin is /dev/null. */
  stdin?: string;
  timeoutMs: number;
  /** Aborting kills the agent's whole process group at once (run cancelled, item task timeout). */
  signal?: AbortSignal;
  /** Per stream. */
  outputCapBytes: number;
  /** Called synchronously as an abort kills the group, with what was captured until then. */
  onAborted?(snapshot: AgentProcessResult): void;
  /** Where the group id is recorded while the agent runs (see agent-group-file.ts). */
  groupFile?: string;
  /** Called with each line of stdout; a message returned stops the agent (outcome "stopped", that message as `stopReason`). */
  stopOnStdoutLine?(line: string): string | undefined;
}

export interface AgentProcessResult {
  /**
   * exited: ran to its end (any exit code); timeout: killed at timeoutMs; aborted: killed by the signal;
   * stopped: killed because a stdout line said it would only wait or retry from then on; spawn-error: never started.
   */
  outcome: "exited" | "timeout" | "aborted" | "stopped" | "spawn-error";
  exitCode: number | null;
  /** The signal that ended the agent, e.g. "SIGKILL". */
  exitSignal: string | null;
  durationMs: number;
  stdout: CapturedText;
  stderr: CapturedText;
  /** Why it did not start (e.g. "spawn codex ENOENT"). */
  error?: string;
  /** Why it was stopped (outcome "stopped"): the agent's own message. */
  stopReason?: string;
}

/** A stdout line longer than this is not checked by stopOnStdoutLine (an event worth stopping for is short). */
const MAX_CHECKED_LINE = 64 * 1024;

/** After the agent exits, how long its output pipes may stay open (held by a process that escaped its group). */
const CLOSE_GRACE_MS = 2000;

// Process groups still running, killed if this process exits (a crash must not leave agents behind).
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Runs one agent invocation in its own process group (detached), with the workspace as working directory.
 * When the agent exits, or on timeout or abort, the whole group is killed, so nothing it started outlives it.
 * stdout and stderr are kept up to the cap. Resolves once the group is gone; never rejects.
 */
export function runAgentProcess(options: RunAgentProcessOptions): Promise<AgentProcessResult> {
  installExitHook();
  const started = performance.now();
  const stdout = new CappedOutput(options.outputCapBytes);
  const stderr = new CappedOutput(options.outputCapBytes);
  const [program, ...args] = options.argv;
  const snapshot = (outcome: AgentProcessResult["outcome"], extra: Partial<AgentProcessResult> = {}): AgentProcessResult => ({
    outcome,
    exitCode: null,
    exitSignal: null,
    durationMs: performance.now() - started,
    stdout: stdout.snapshot(),
    stderr: stderr.snapshot(),
    ...extra,
  });
  if (!program) return Promise.resolve(snapshot("spawn-error", { error: "empty command" }));
  if (options.signal?.aborted) return Promise.resolve(snapshot("aborted"));

  return new Promise((resolve) => {
    const stdio: StdioOptions = [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"];
    // Next's types make NODE_ENV a required member of ProcessEnv; the agent gets only what it is given.
    const child: ChildProcess = spawn(program, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, detached: true, stdio });
    const pid = child.pid;
    if (pid !== undefined) {
      liveGroups.add(pid);
      try {
        if (options.groupFile) recordAgentGroup(options.groupFile, pid);
      } catch {
        // Unrecorded, the group only escapes the cleanup after a kill -9 of this process; the agent runs as usual.
      }
    }
    let killedFor: "timeout" | "aborted" | "stopped" | null = null;
    let stopReason: string | undefined;
    let partialLine = "";
    let exit: { code: number | null; signal: string | null } | null = null;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;

    const killGroup = () => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const finish = (result: AgentProcessResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) liveGroups.delete(pid);
      if (options.groupFile) forgetAgentGroup(options.groupFile);
      resolve(result);
    };
    const onAbort = () => {
      killedFor ??= "aborted";
      killGroup();
      options.onAborted?.(snapshot("aborted"));
    };
    const timer = setTimeout(() => {
      killedFor ??= "timeout";
      killGroup();
    }, options.timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout!.on("data", (chunk: Buffer) => {
      stdout.push(chunk);
      if (!options.stopOnStdoutLine || killedFor) return;
      const lines = (partialLine + chunk.toString("utf8")).split("\n");
      partialLine = lines.pop()!.slice(-MAX_CHECKED_LINE);
      for (const line of lines) {
        const reason = line.length <= MAX_CHECKED_LINE ? options.stopOnStdoutLine(line) : undefined;
        if (reason === undefined) continue;
        killedFor = "stopped";
        stopReason = reason;
        killGroup();
        break;
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
    if (child.stdin) {
      child.stdin.on("error", () => undefined); // the agent need not read it
      child.stdin.end(options.stdin);
    }
    child.once("error", (error) => {
      // Failed to start (no such program, not executable): there is no group to kill.
      if (exit === null) finish(snapshot("spawn-error", { error: error.message }));
    });
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      // Whatever the agent started goes with it; the pipes then close.
      killGroup();
      graceTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        done();
      }, CLOSE_GRACE_MS);
    });
    const done = () => {
      const outcome = killedFor ?? "exited";
      finish(snapshot(outcome, { exitCode: exit?.code ?? null, exitSignal: exit?.signal ?? null, ...(stopReason !== undefined ? { stopReason } : {}) }));
    };
    child.once("close", () => {
      if (exit) done();
    });
  });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pid of liveGroups) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}
