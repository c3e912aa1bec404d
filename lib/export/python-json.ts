import { pyFloatRepr } from "../text/python";

/** Marks a number that Python holds as a float, so it prints as `1.0`, not `1`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

export type PyJson = string | number | boolean | null | PyFloat | readonly PyJson[] | { readonly [key: string]: PyJson };

/**
 * Python's `json.dumps(value, ensure_ascii=False)`, byte for byte: `", "` and `": "` separators and
 * float repr. JSON.stringify escapes strings the same way Python does with ensure_ascii=False.
 */
export function pyJsonDumps(value: PyJson): string {
  if (value instanceof PyFloat) return pyFloatJson(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloatJson(value);
  if (typeof value === "string" || typeof value === "boolean" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(", ")}]`;
  const entries = Object.entries(value as { [key: string]: PyJson });
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pyJsonDumps(item)}`).join(", ")}}`;
}

function pyFloatJson(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  return pyFloatRepr(n);
}
