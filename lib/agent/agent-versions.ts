import { execFile } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { TESTED_AGENT_VERSIONS } from "./presets";

/**
 * Which agent programs this server can run, and their versions (`codex --version`, `claude --version`): the
 * New run form shows them, and a run naming an agent whose program is missing is refused before it starts.
 */

export interface AgentBinaryInfo {
  program: string;
  /** Absolute path found on PATH, or null when the program is not installed. */
  path: string | null;
  /** First line `--version` printed, when it answered in time. */
  version: string | null;
}

/** The program an agent runs, with {configDir} filled in (a script kept beside the config). */
export function agentProgram(agent: { command: string[]; configDir: string }): string {
  return (agent.command[0] ?? "").replaceAll("{configDir}", agent.configDir);
}

/** The program's absolute path: itself if it has a slash, else the first executable match on PATH. */
export function findProgram(program: string, pathVariable: string | undefined = process.env.PATH, cwd: string = process.cwd()): string | null {
  if (!program) return null;
  const candidates = program.includes("/") ? [isAbsolute(program) ? program : resolve(cwd, program)] : (pathVariable ?? "").split(delimiter).filter(Boolean).map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

const VERSION_TIMEOUT_MS = 5000;
const VERSION_CACHE_MS = 5 * 60_000;
// Keyed by resolved path: an upgrade in place shows its new version once the entry expires.
const versionCache = new Map<string, { at: number; version: Promise<string | null> }>();

function versionOf(path: string): Promise<string | null> {
  const cached = versionCache.get(path);
  if (cached && Date.now() - cached.at < VERSION_CACHE_MS) return cached.version;
  const version = new Promise<string | null>((done) => {
    execFile(path, ["--version"], { timeout: VERSION_TIMEOUT_MS, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } as Record<string, string> as NodeJS.ProcessEnv }, (error, stdout) => {
      const line = String(stdout).split("\n").find((text) => text.trim() !== "")?.trim();
      done(error && !line ? null : (line ?? null));
    });
  });
  versionCache.set(path, { at: Date.now(), version });
  return version;
}

/** Where the program is and which version it says it is (cached for a few minutes). */
export async function agentBinaryInfo(program: string, pathVariable: string | undefined = process.env.PATH): Promise<AgentBinaryInfo> {
  const path = findProgram(program, pathVariable);
  return { program, path, version: path ? await versionOf(path) : null };
}

/** The refusal for an agent whose program is not installed, or undefined when it is. */
export function missingProgramMessage(agentName: string, program: string, pathVariable: string | undefined = process.env.PATH): string | undefined {
  if (findProgram(program, pathVariable)) return undefined;
  const install = program === "codex" ? ` (install it: npm i -g @openai/codex@${TESTED_AGENT_VERSIONS.codex})`
    : program === "claude" ? ` (install it: npm i -g @anthropic-ai/claude-code@${TESTED_AGENT_VERSIONS.claude})` : "";
  return `agent "${agentName}": its program "${program}" is not installed on this server (not found on PATH)${install}`;
}
