/**
 * Reading the JSON out of a model reply: `extract_json` of skillopt/utils/json_utils.py, in seed mode, i.e. as
 * upstream behaves when the optional `json_repair` package is not installed.
 *
 * Upstream's rules, in order:
 * 1. The first ```` ```json ```` fence (regex ```` ```json\s*(.*?)``` ````, DOTALL; `\s` is Unicode whitespace):
 *    `json.loads` of its body, if that parses.
 * 2. Otherwise the greedy span from the first `{` to the last `}` of the whole reply (`\{.*\}`), if it parses.
 * 3. Otherwise upstream looks for a single, unambiguous, JSON-looking malformed object to hand to json_repair;
 *    without json_repair installed it warns and returns None. So in seed mode step 3 always gives null and is
 *    not ported.
 *
 * Quirks copied: the fence must be spelled ```` ```json ```` in lower case; a fence body that does not parse
 * falls through to the greedy span, which then runs from the first brace anywhere (inside the fence or in the
 * prose before it) to the last; two objects in one reply make the greedy span invalid, so the reply yields
 * null; and despite upstream's `-> dict | None` annotation, a fence holding an array, a string or a number
 * returns that value (callers then test it with `"key" in result`, see ranking). Floats come back as PyFloat.
 */
import type { PyJson } from "@/lib/export/python-json";
import { PY_WHITESPACE } from "@/lib/text/python";
import { PyJsonDecodeError, pyJsonLoads } from "./py-json";

const FENCE_OPEN = "```json";
const FENCE_CLOSE = "```";

/**
 * The body of the first ```` ```json ```` fence, as upstream's regex captures it, or undefined. The leftmost
 * opening is the match (if it has no closing fence after it, no later opening can have one either); greedy
 * `\s*` takes all the whitespace after it, then the lazy body runs to the next ```` ``` ````.
 */
export function fencedJsonBody(text: string): string | undefined {
  const open = text.indexOf(FENCE_OPEN);
  if (open < 0) return undefined;
  let start = open + FENCE_OPEN.length;
  while (start < text.length && PY_WHITESPACE.includes(text[start]!)) start++;
  const close = text.indexOf(FENCE_CLOSE, start);
  return close < 0 ? undefined : text.slice(start, close);
}

/** `re.search(r"\{.*\}", text, re.DOTALL)`: from the first `{` to the last `}` after it. */
export function greedyBraceSpan(text: string): string | undefined {
  const first = text.indexOf("{");
  if (first < 0) return undefined;
  const last = text.lastIndexOf("}");
  return last > first ? text.slice(first, last + 1) : undefined;
}

/** `json.loads`, with a decode error meaning "no value" (upstream: `except json.JSONDecodeError: pass`). */
function loadsOrUndefined(text: string): PyJson | undefined {
  try {
    return pyJsonLoads(text);
  } catch (error) {
    if (error instanceof PyJsonDecodeError) return undefined;
    throw error; // PyJsonRecursionError: upstream crashes here too; the caller records it
  }
}

/**
 * `extract_json(text)` without json_repair. Throws PyJsonRecursionError where upstream would raise
 * RecursionError (absurdly deep nesting).
 */
export function extractJson(text: string): PyJson | null {
  const fenced = fencedJsonBody(text);
  if (fenced !== undefined) {
    const value = loadsOrUndefined(fenced);
    if (value !== undefined) return value;
  }
  const span = greedyBraceSpan(text);
  if (span !== undefined) {
    const value = loadsOrUndefined(span);
    if (value !== undefined) return value;
  }
  return null;
}
