import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseDatasetStream } from "../../datasets";
import { buildSystemPrompt, buildUserPrompt } from "../../prompts";
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

export function readTextFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new CliInputError(`${path}: cannot read file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
