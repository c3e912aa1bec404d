/**
 * Python semantics of parsed JSON values (`PyJson`, floats as `PyFloat`) that the ported upstream code relies
 * on: truthiness, `type(x).__name__` in error messages, and the marker for places where upstream crashes.
 */
import { PyFloat, type PyJson } from "@/lib/export/python-json";

/**
 * Upstream raises an exception here that nothing catches, so SkillOpt itself would stop. Skillboard records
 * the failure (this error's message says what upstream raises) and goes on; the caller decides how.
 */
export class UpstreamCrashError extends Error {
  constructor(readonly pythonError: string) {
    super(`upstream SkillOpt would stop here with ${pythonError}`);
    this.name = "UpstreamCrashError";
  }
}

/** Python's truthiness (`if value:`): empty containers, "", 0, 0.0, False and None are false. */
export function pyTruthy(value: PyJson | undefined): boolean {
  if (value === undefined || value === null || value === false || value === "" || value === 0) return false;
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** `type(value).__name__` of a parsed JSON value. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (value instanceof PyFloat) return "float";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return Array.isArray(value) ? "list" : "dict";
}

/** A parsed JSON object (a Python dict), as opposed to a list, a scalar or a PyFloat. */
export function isPyDict(value: PyJson | undefined): value is { readonly [key: string]: PyJson } {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof PyFloat);
}

/**
 * `dict.get(key, default)`: the default only when the key is absent (a JSON null is Python's None, not
 * missing); own keys only, so "constructor" or "__proto__" never reach Object.prototype.
 */
export function pyGet(dict: { readonly [key: string]: PyJson }, key: string, fallback: PyJson): PyJson {
  return Object.hasOwn(dict, key) ? dict[key]! : fallback;
}
