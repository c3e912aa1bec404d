import { createInterface } from "node:readline";
import { flushOutputStream, guardOutputStream, redactWrites } from "../process/output-streams";

/** Bad input or usage: the CLI exits with code 2 and this message. */
export class CliInputError extends Error {
  override name = "CliInputError";
}

/**
 * The reader of stdout went away (EPIPE, as with `| head`): the command stops at once, without a message (nobody is
 * there to read the rest), and exits with STDOUT_CLOSED_EXIT_CODE.
 */
export class StdoutClosedError extends Error {
  override name = "StdoutClosedError";
  constructor() {
    super("stdout was closed by its reader");
  }
}

/** What a shell reports for a command killed by a broken pipe (128 + SIGPIPE). */
export const STDOUT_CLOSED_EXIT_CODE = 141;

const stdout = guardOutputStream(process.stdout);
guardOutputStream(process.stderr);
// Progress, notices and errors never show a key (stdout is data, already redacted where it was stored).
redactWrites(process.stderr);

/** Progress, notices and errors: stderr, so stdout carries only data and can be piped. */
export function logLine(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * Lines for stderr written in batches (every `delayMs`, or once 64 KB wait): a run prints one progress line per item,
 * and each was a synchronous write to the pipe, ~0.45 s of CPU per 20,000 items. Call `flush` before anything else is
 * logged, and when done.
 */
export function batchedLog(delayMs = 50): { line(text: string): void; flush(): void } {
  let pending: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    size = 0;
    process.stderr.write(text);
  };
  return {
    line(text) {
      pending.push(`${text}\n`);
      size += text.length + 1;
      if (size >= 65_536) flush();
      else timer ??= setTimeout(flush, delayMs);
    },
    flush,
  };
}

/** Data to stdout, waiting when the pipe is full so large exports do not pile up in memory. */
export async function writeOut(text: string): Promise<void> {
  if (stdout.closed) throw new StdoutClosedError();
  if (process.stdout.write(text)) return;
  // Whichever comes first: the reader takes the data ('drain'), or it is gone ('error', handled by the guard).
  await new Promise<void>((resolve) => {
    const done = () => {
      process.stdout.off("drain", done);
      process.stdout.off("error", done);
      resolve();
    };
    process.stdout.on("drain", done);
    process.stdout.on("error", done);
  });
  if (stdout.closed) throw new StdoutClosedError();
}

/**
 * Waits until every byte written to stdout and stderr has been handed to the operating system, so that exiting
 * loses nothing however slowly the reader reads. Node buffers whatever a full pipe does not take at once.
 */
export async function flushOutput(): Promise<void> {
  await Promise.all([flushOutputStream(process.stdout), flushOutputStream(process.stderr)]);
}

/** True once a write to stdout failed: some of the output did not reach its reader. */
export function stdoutWasClosed(): boolean {
  return stdout.closed;
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

/**
 * Runs `work` with Ctrl-C and SIGTERM turned into an abort of its signal (the work then stops cleanly and can be
 * resumed), saying so on stderr.
 */
export async function untilInterrupted<T>(stoppingMessage: string, work: (signal: AbortSignal) => Promise<T>, beforeMessage?: () => void): Promise<T> {
  const interrupt = new AbortController();
  const onSignal = () => {
    beforeMessage?.();
    logLine(stoppingMessage);
    interrupt.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await work(interrupt.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
