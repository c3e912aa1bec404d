/**
 * The golden vectors recorded by tests/optimize/golden/record_core.py (python3.11, upstream SkillOpt code) in
 * tests/fixtures/golden/optimize-core.json. Each section is typed by the test that reads it.
 */
import { readFileSync } from "node:fs";

const golden = JSON.parse(
  readFileSync(new URL("../fixtures/golden/optimize-core.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

export function goldenSection<T>(name: string): T {
  const section = golden[name];
  if (section === undefined) throw new Error(`optimize-core.json has no "${name}" section: re-run record_core.py`);
  return section as T;
}
