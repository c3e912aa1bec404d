/**
 * The HTTP edge every route handler goes through: one access check, one way to read path and query parameters, and
 * one JSON error body. A handler reads at a glance as protected:
 *
 *   export const GET = guardedRoute({ params: RunParamsSchema }, async (request, { params }) => …);
 *
 * Errors are always `{"error": "…"}`, plus `"fields": {"<input>": "…"}` when named input was invalid, sent uncached.
 * Malformed input is 400 (the schemas of app/_lib/ids.ts for ids); an unknown row is 404, from a NotFoundError of
 * lib/db or an HttpError the handler throws. proxy.ts applies the same access rules first; the check here is for the
 * routes the proxy does not see (streamed uploads) and so that no handler relies on the proxy alone.
 */
import { z } from "zod";
import { refuseUnlessAllowed } from "@/lib/auth/guard-request";
import { NotFoundError } from "@/lib/db";

/** The JSON body of every error a route handler answers with; uploads add the line-numbered issues of their file. */
export interface ErrorBody {
  error: string;
  fields?: Record<string, string>;
}

/** Thrown by a handler (or what it calls in app/) to answer with an error; guardedRoute turns it into the response. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export function errorResponse<Body extends ErrorBody>(status: number, body: Body, headers: HeadersInit = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** The first message per input field of a failed zod parse, keyed by the field's path ("runs", "sample.seed"). */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "input";
    fields[key] ??= issue.message;
  }
  return fields;
}

/** A 400 for invalid input: each field's message, and all of them in one line as the error. */
export function invalidInput(error: z.ZodError): HttpError {
  const fields = fieldMessages(error);
  return new HttpError(400, Object.values(fields).join("; "), fields);
}

/** What a handler is given besides the request: its path and query parameters, parsed. */
export interface RouteInput<Params, Query> {
  params: Params;
  query: Query;
}

interface RouteSchemas<Params, Query> {
  params?: z.ZodType<Params>;
  query?: z.ZodType<Query>;
}

type NoInput = Record<string, never>;
type RouteHandler<Params, Query> = (request: Request, input: RouteInput<Params, Query>) => Response | Promise<Response>;
/** What Next calls: the request and the route's raw path parameters. */
export type GuardedRouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const guarded = new WeakSet<GuardedRouteHandler>();

/** True for a handler made by guardedRoute (a test checks every exported handler is one). */
export function isGuardedRoute(handler: unknown): boolean {
  return typeof handler === "function" && guarded.has(handler as GuardedRouteHandler);
}

/**
 * A route handler that checks access (lib/auth/access-policy, as the proxy does: token, cross-site posts, loopback
 * names), then parses the path and query parameters with the given schemas (400 with field messages when they do
 * not fit), then runs the handler, turning a thrown HttpError or NotFoundError into the JSON error body.
 */
export function guardedRoute(handler: RouteHandler<NoInput, NoInput>): GuardedRouteHandler;
export function guardedRoute<Params = NoInput, Query = NoInput>(schemas: RouteSchemas<Params, Query>, handler: RouteHandler<Params, Query>): GuardedRouteHandler;
export function guardedRoute<Params, Query>(
  schemasOrHandler: RouteSchemas<Params, Query> | RouteHandler<Params, Query>,
  maybeHandler?: RouteHandler<Params, Query>,
): GuardedRouteHandler {
  const schemas = typeof schemasOrHandler === "function" ? {} : schemasOrHandler;
  const handler = typeof schemasOrHandler === "function" ? schemasOrHandler : maybeHandler!;
  const route: GuardedRouteHandler = async (request, context) => {
    const refused = refuseUnlessAllowed(request);
    if (refused) return refused;
    try {
      const params = parseWith(schemas.params, context?.params ? await context.params : {});
      const query = parseWith(schemas.query, queryRecord(new URL(request.url).searchParams));
      return await handler(request, { params, query });
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error.status, { error: error.message, ...(error.fields ? { fields: error.fields } : {}) });
      if (error instanceof NotFoundError) return errorResponse(404, { error: error.message });
      throw error;
    }
  };
  guarded.add(route);
  return route;
}

function parseWith<T>(schema: z.ZodType<T> | undefined, input: unknown): T {
  if (!schema) return {} as T;
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

/** A query string as a record: one value as a string, a repeated parameter (`runs=1&runs=2`) as the list of them. */
export function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    record[key] = values.length === 1 ? values[0]! : values;
  }
  return record;
}
