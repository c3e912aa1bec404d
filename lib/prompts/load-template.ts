import { readFileSync } from "node:fs";
import { join } from "node:path";

const cache = new Map<string, string>();

/**
 * The text of `prompts/<name>.md` under the project root (process.cwd()), read once and cached like the
 * seed's `load_prompt`. A name may hold one folder (`skillopt/ranking` is `prompts/skillopt/ranking.md`, the
 * optimiser's templates), never `..`. No strip: the trailing newline is part of the prompt. Line endings are
 * turned into `\n` the way Python's text-mode `open(path, encoding="utf-8").read()` does, so a checkout with
 * CRLF endings still gives the seed's bytes.
 */
export function loadPromptTemplate(name: string): string {
  if (!/^(?:[A-Za-z0-9_-]+\/)?[A-Za-z0-9_-]+$/.test(name)) throw new Error(`Invalid prompt name: ${JSON.stringify(name)}`);
  const path = join(/*turbopackIgnore: true*/ process.cwd(), "prompts", `${name}.md`);
  let text = cache.get(path);
  if (text === undefined) {
    text = readFileSync(path, "utf8").replace(/\r\n?/g, "\n");
    cache.set(path, text);
  }
  return text;
}
