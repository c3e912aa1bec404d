import { isDeepStrictEqual } from "node:util";
import { clonePlan } from "./query-plan-cache";

/**
 * Prisma's query plans as templates: one plan per request *shape*, its values put in when it is used.
 *
 * Prisma 6.19's client hands its query compiler the request's JSON with every value in it, and the plan it gets back
 * holds those values (as the arguments of its SQL: `"args":["1","0"]`) and nothing else that depends on them: values
 * made when a query runs, such as `now()` for a default, are calls the plan makes when it is executed
 * (`generatorCall`). So the plan of one request is the plan of any request of the same shape with its values put in.
 * Prisma 7 keeps plans by shape this way; 7 does not work offline here (../shared/STACK.md).
 *
 * The shape: the request with each value that can vary (a string, a number, a DateTime) replaced by a marker
 * of its place, which the compiler accepts as a value of the same type. Booleans, nulls, numbers written with an exponent and the strings
 * that choose a plan (an `orderBy`'s direction, a filter's `mode`) stay in the shape as they are, and so does an array's
 * length. A template is the plan of the shape itself, kept only when it is proven (verifiedTemplate): the values of
 * the request it was made for, put into it, give exactly the plan the compiler made for that request. A shape the
 * compiler refuses, or whose plan uses a value in another form than the request's (a `contains` filter's
 * `%value%`), has no template, and its requests are compiled every time.
 */

/** The values of a request, in the order their markers were placed. */
export type RequestValue =
  | { kind: "string"; value: string }
  | { kind: "int"; value: number }
  | { kind: "float"; value: number }
  | { kind: "date"; value: string };

export interface ShapedRequest {
  /** The request's JSON with each value replaced by its marker: the key of its template. */
  shape: string;
  values: RequestValue[];
}

// Keys whose strings choose the plan (orderBy directions, string filter modes, groupBy fields): part of the shape.
const SHAPE_KEYS = new Set(["modelName", "action", "orderBy", "distinct", "by", "mode", "sort", "nulls", "selection", "$type", "prisma__type"]);

// Markers: unlikely as real values, and valid for their type (a string, an Int of Prisma's 32 bits, a DateTime).
const stringMarker = (place: number) => `\u0001skillboard-value-${place}\u0001`;
const intMarker = (place: number) => 1_000_000_000 + place * 7_919;
const floatMarker = (place: number) => 1_000_000_000.5 + place * 7_919;
const dateMarker = (place: number) => new Date(Date.UTC(2001, 0, 1, 0, 0, 0, 123) + place * 1_000).toISOString();
const MAX_PLACES = 100_000;

/** The shape and values of a request's JSON (a request without values is its own shape), or null when it is not JSON. */
export function shapeOf(request: string): ShapedRequest | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(request);
  } catch {
    return null;
  }
  const values: RequestValue[] = [];
  const marked = markValues(parsed, values);
  if (values.length > MAX_PLACES) return null;
  return { shape: JSON.stringify(marked), values };
}

function markValues(node: unknown, values: RequestValue[]): unknown {
  if (typeof node === "string") return stringMarker(values.push({ kind: "string", value: node }));
  if (typeof node === "number") {
    if (Number.isSafeInteger(node)) return intMarker(values.push({ kind: "int", value: node }));
    // A fraction written without an exponent (an elapsed time in ms): the plan may hold its decimal text, which is
    // then the same as JavaScript's. Any other number is shape.
    return Number.isFinite(node) && !String(node).includes("e") ? floatMarker(values.push({ kind: "float", value: node })) : node;
  }
  if (Array.isArray(node)) return node.map((item) => markValues(item, values));
  if (node === null || typeof node !== "object") return node;
  const object = node as Record<string, unknown>;
  if (object.$type !== undefined) {
    // A typed value: a DateTime's instant varies; any other (Json, Decimal, BigInt, Bytes, a field reference) is shape.
    if (object.$type === "DateTime" && typeof object.value === "string" && Object.keys(object).length === 2) {
      return { $type: "DateTime", value: dateMarker(values.push({ kind: "date", value: object.value })) };
    }
    return node;
  }
  const marked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (SHAPE_KEYS.has(key)) marked[key] = value;
    else if (key === "parameters" && typeof value === "string") marked[key] = markRawParameters(value, values);
    else marked[key] = markValues(value, values);
  }
  return marked;
}

/** A raw query's parameters come as JSON text (`$queryRawUnsafe`'s values): its values are marked inside it. */
function markRawParameters(text: string, values: RequestValue[]): string {
  try {
    const parameters: unknown = JSON.parse(text);
    return Array.isArray(parameters) ? JSON.stringify(markValues(parameters, values)) : text;
  } catch {
    return text;
  }
}

/**
 * The plan of a request of this template's shape: a copy of the template with each marker replaced by the request's
 * value, where the plan holds it as the request does (a string, a DateTime's text) or as a number or its decimal text.
 */
export function fillTemplate(template: unknown, values: readonly RequestValue[]): unknown {
  const byMarker = new Map<unknown, unknown>();
  values.forEach((entry, index) => {
    const place = index + 1;
    if (entry.kind === "string") byMarker.set(stringMarker(place), entry.value);
    else if (entry.kind === "date") byMarker.set(dateMarker(place), entry.value);
    else {
      const marker = entry.kind === "int" ? intMarker(place) : floatMarker(place);
      byMarker.set(marker, entry.value);
      byMarker.set(String(marker), String(entry.value));
    }
  });
  return clonePlan(template, (leaf) => (byMarker.has(leaf) ? byMarker.get(leaf) : leaf));
}

/**
 * The template of `request`'s shape, proven on the plan the compiler made for the request itself: null when the
 * compiler refuses the shape or the filled template is not that plan in every detail.
 */
export function verifiedTemplate(compile: (request: string) => unknown, shaped: ShapedRequest, plan: unknown): unknown {
  // Without values the shape is the request: its plan is the template.
  if (shaped.values.length === 0) return plan;
  let template: unknown;
  try {
    template = compile(shaped.shape);
  } catch {
    return null;
  }
  return isDeepStrictEqual(fillTemplate(template, shaped.values), plan) ? template : null;
}
