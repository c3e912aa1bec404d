import type { CapturedText } from "./capped-output";
import type { FinalMessageSpec } from "./config";
import { readWorkspaceFile } from "./workspace";

/**
 * The agent's final message, read the way its config says: the last line it printed, all it printed, a file
 * it wrote in the workspace, or a field of the last matching event of a JSONL stream. "" when there is none
 * (the seed then falls back to the raw output).
 */
export async function readFinalMessage(spec: FinalMessageSpec, input: { stdout: CapturedText; workspace: string; maxBytes: number }): Promise<string> {
  switch (spec.from) {
    case "stdout-last-line":
      return lastLine(input.stdout.tail);
    case "stdout":
      return input.stdout.text.replace(/\s+$/, "");
    case "file": {
      const file = await readWorkspaceFile(input.workspace, spec.path, input.maxBytes);
      return file ? file.content.toString("utf8") : "";
    }
    case "jsonl":
      return lastJsonlField(input.stdout, spec.match, spec.field);
  }
}

function lastLine(text: string): string {
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim() !== "") return lines[i]!;
  return "";
}

/** The field of the last line that parses as a JSON object and holds every `match` value (dotted paths). */
export function lastJsonlField(stdout: CapturedText, match: Record<string, string | number | boolean>, field: string): string {
  // When the output was cut, the lines at the cut are partial and simply fail to parse.
  const lines = [...stdout.head.split("\n"), ...stdout.tail.split("\n")];
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith("{")) continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (!Object.entries(match).every(([path, expected]) => valueAt(event, path) === expected)) continue;
    const value = valueAt(event, field);
    if (value === undefined || value === null) continue;
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  return "";
}

function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

