import { createInterface } from "node:readline";
import { once } from "node:events";

/** Bad input or usage: the CLI exits with code 2 and this message. */
export class CliInputError extends Error {
  override name = "CliInputError";
}

/** Progress, notices and errors: stderr, so stdout carries only data and can be piped. */
export function logLine(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Data to stdout, waiting when the pipe is full so large exports do not pile up in memory. */
export async function writeOut(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, "drain");
}

/** Non-empty lines of stdin with their 1-based line numbers. */
export async function* readStdinLines(): AsyncGenerator<{ line: number; text: string }> {
  let line = 0;
  for await (const text of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    line++;
    if (text.trim()) yield { line, text };
  }
}

export function parseIntegerOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new CliInputError(`--${name}: expected a whole number, got "${value}"`);
  return Number(value);
}

export function parseNumberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) throw new CliInputError(`--${name}: expected a number, got "${value}"`);
  return parsed;
}
