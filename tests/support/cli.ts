import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";

/** Fixture files named as a user names them on the command line: relative to the project folder, where tests run. */
export const MINI_DATASET = "tests/fixtures/datasets/searchqa-mini.jsonl";
export const INITIAL_SKILL = "tests/fixtures/skills/searchqa-initial.md";
export const TRAINED_SKILL = "tests/fixtures/skills/searchqa-trained.md";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a user does (a separate process, real stdin/stdout/stderr) against the given database. */
export function runCli(args: string[], options: { databaseUrl: string; input?: string; env?: Record<string, string> }): Promise<CliResult> {
  const child = spawnCli(args, options);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdin!.end(options.input ?? "");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

export function spawnCli(args: string[], options: { databaseUrl: string; env?: Record<string, string>; stdio?: StdioOptions }): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args], {
    env: { ...cleanEnv(), DATABASE_URL: options.databaseUrl, ...options.env },
    stdio: options.stdio ?? ["pipe", "pipe", "pipe"],
  });
}

/** The caller's model settings must not leak into tests. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("OPENAI_") || key.startsWith("AZURE_OPENAI_") || key === "SKILLBOARD_MODEL") delete env[key];
  return env;
}
