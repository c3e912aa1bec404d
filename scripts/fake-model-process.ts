/**
 * scripts/fake-model-server.ts started as a child process, for the benchmarks: the model then runs on its own event
 * loop, as a real model service would, so its bursts of answers neither slow nor skew what the benchmark measures.
 *
 *   const model = await spawnFakeModelServer(["--latency-ms", "50"]);
 *   try { … model.baseURL … } finally { model.stop(); }
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

export interface FakeModelProcess {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseURL: string;
  pid: number;
  stop(): void;
}

export async function spawnFakeModelServer(args: string[] = []): Promise<FakeModelProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/fake-model-server.ts", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const baseURL = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the model server (scripts/fake-model-server.ts) exited with ${code} before it listened`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  return { baseURL, pid: child.pid!, stop: () => void child.kill("SIGTERM") };
}
