import { pyFloatRepr, pyStrRepr } from "../text/python";

/** Marks a number that Python holds as a float, so it prints as `1.0`, not `1`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/**
 * A value Python's `json.loads` gives: str, int (a plain integral number), float (a `PyFloat`, or a plain
 * fractional number), bool, None, list, dict (insertion-ordered, as Python keeps it).
 */
export type PyJson = string | number | boolean | null | PyFloat | readonly PyJson[] | { readonly [key: string]: PyJson };

export interface PyJsonDumpsOptions {
  /** Python's `indent=`: each nesting level on its own lines, `","` then newline between items. */
  indent?: number;
}

/**
 * Python's `json.dumps(value, ensure_ascii=False)`, byte for byte: `", "` and `": "` separators (`","` and a
 * newline with `indent`) and float repr. JSON.stringify escapes strings the same way Python does with
 * ensure_ascii=False.
 */
export function pyJsonDumps(value: PyJson, options: PyJsonDumpsOptions = {}): string {
  return dumpValue(value, options.indent, 0);
}

function dumpValue(value: PyJson, indent: number | undefined, depth: number): string {
  if (value instanceof PyFloat) return pyFloatJson(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloatJson(value);
  if (typeof value === "string" || typeof value === "boolean" || value === null) return JSON.stringify(value);
  const items = Array.isArray(value)
    ? value.map((item: PyJson) => dumpValue(item, indent, depth + 1))
    : Object.entries(value as { [key: string]: PyJson }).map(
        ([key, item]) => `${JSON.stringify(key)}: ${dumpValue(item, indent, depth + 1)}`,
      );
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (indent === undefined) return `${open}${items.join(", ")}${close}`;
  // Python writes an empty container as `[]` / `{}` even when indenting.
  if (items.length === 0) return `${open}${close}`;
  const inner = "\n" + " ".repeat(indent * (depth + 1));
  return `${open}${inner}${items.join("," + inner)}\n${" ".repeat(indent * depth)}${close}`;
}

function pyFloatJson(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  return pyFloatRepr(n);
}

/** Python `repr()` of a json.loads value: `'text'`, `1`, `1.0`, `True`, `None`, `['a', 1]`, `{'k': 'v'}`. */
export function pyJsonRepr(value: PyJson): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value).toString() : pyFloatRepr(value);
  if (typeof value === "string") return pyStrRepr(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null) return "None";
  if (Array.isArray(value)) return `[${value.map((item: PyJson) => pyJsonRepr(item)).join(", ")}]`;
  const entries = Object.entries(value as { [key: string]: PyJson });
  return `{${entries.map(([key, item]) => `${pyStrRepr(key)}: ${pyJsonRepr(item)}`).join(", ")}}`;
}

/** Python `str()` (what an f-string prints) of a json.loads value: a str as is, anything else as its repr. */
export function pyJsonStr(value: PyJson): string {
  return typeof value === "string" ? value : pyJsonRepr(value);
}

/** Python truthiness: `""`, `0`, `0.0`, `False`, `None`, `[]` and `{}` are false; NaN is true. */
export function pyTruthy(value: PyJson | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (value instanceof PyFloat) return value.value !== 0;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value.length > 0;
  if (typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0;
}

/** A Python dict (a plain object; a `PyFloat` or a list is not one). */
export function isPyDict(value: PyJson | undefined): value is { readonly [key: string]: PyJson } {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype
  );
}

/** Python `d.get(key, fallback)` on a dict. */
export function pyGet(dict: { readonly [key: string]: PyJson }, key: string, fallback: PyJson): PyJson {
  return Object.hasOwn(dict, key) ? (dict[key] as PyJson) : fallback;
}
