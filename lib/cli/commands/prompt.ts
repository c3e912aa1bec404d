import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseDatasetStream } from "../../datasets";
import { buildSystemPrompt, buildUserPrompt } from "../../prompts";
import { decodeUtf8, NOT_UTF8_MESSAGE } from "../../text/utf8";
import { CliInputError, writeOut } from "../io";

/** `prompt --skill FILE [--diagnostic-instruction TEXT]`: dataset items (JSONL) on stdin → {"id", "system", "user"} per item. */
export async function promptCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { skill: { type: "string" }, "diagnostic-instruction": { type: "string" } } });
  if (!values.skill) throw new CliInputError("prompt: --skill FILE is required");
  const system = buildSystemPrompt(readTextFile(values.skill));
  const instruction = values["diagnostic-instruction"];
  const items = await parseDatasetStream(process.stdin, { fileName: "stdin", format: "jsonl" });
  for (const item of items) {
    const user = buildUserPrompt({
      question: item.question,
      context: item.context,
      diagnosticMode: instruction !== undefined,
      diagnosticInstruction: instruction ?? "",
      diagnosticTraceContext: item.diagnosticTraceContext ?? "",
    });
    await writeOut(`${JSON.stringify({ id: item.id, system, user })}\n`);
  }
  return 0;
}

/** A UTF-8 text file (a skill), refused like any upload when it is not UTF-8 (lib/text/utf8.ts). */
export function readTextFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new CliInputError(`${path}: cannot read file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new CliInputError(`${path}: ${NOT_UTF8_MESSAGE}`);
  return text;
}
