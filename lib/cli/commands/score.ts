import { evaluate } from "../../eval";
import { PyFloat, pyJsonDumps } from "../../export/python-json";
import { CliInputError, readStdinLines, writeOut } from "../io";

/** `score`: JSONL {"response", "answers"} on stdin → one {"em", "f1", "sub_em", "predicted_answer"} line each, in order. */
export async function scoreCommand(): Promise<number> {
  for await (const { line, text } of readStdinLines()) {
    const { response, answers } = parseScoreInput(text, line);
    const r = evaluate(response, answers);
    await writeOut(`${pyJsonDumps({ em: new PyFloat(r.em), f1: new PyFloat(r.f1), sub_em: new PyFloat(r.subEm), predicted_answer: r.predictedAnswer })}\n`);
  }
  return 0;
}

function parseScoreInput(text: string, line: number): { response: string; answers: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliInputError(`stdin: line ${line}: invalid JSON (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new CliInputError(`stdin: line ${line}: expected a JSON object`);
  const record = value as Record<string, unknown>;
  if (typeof record.response !== "string") throw new CliInputError(`stdin: line ${line}: field "response": must be a string`);
  const answers = record.answers;
  if (!Array.isArray(answers) || !answers.every((a) => typeof a === "string")) {
    throw new CliInputError(`stdin: line ${line}: field "answers": must be a list of strings`);
  }
  return { response: record.response, answers };
}
