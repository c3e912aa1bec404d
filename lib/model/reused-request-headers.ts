import type OpenAI from "openai";
import { ReadOnlyHeaders } from "./read-only-headers";

type BuildRequest = OpenAI["buildRequest"];
type RequestOptions = Parameters<BuildRequest>[0];
type BuiltRequest = Awaited<ReturnType<BuildRequest>>;

/** What the SDK built for the first request of a kind, less the body and the signal, which differ per request. */
interface RequestTemplate {
  url: string;
  timeout: number;
  req: Omit<BuiltRequest["req"], "body" | "signal">;
}

/**
 * Makes `client` build the URL and headers of its byte-body requests once per kind (method, path, header object,
 * timeout, attempt number) and reuse them: each later request of that kind is the first one's URL and headers with its
 * own body and signal.
 *
 * The SDK builds them anew for every request (buildRequest, public): five header sources merged into an undici
 * Headers, a Set per source, every name validated and lower-cased, the auth headers awaited, and the result iterated
 * again for its debug log line, built even when logging is off. In a profile of a 20,000-item run that was ~0.8 s of
 * CPU and ~450 MB of the run's ~2.5 GB of allocations; the URL and headers came out the same every time.
 *
 * Only requests whose headers cannot differ between two of a kind take the reused path: a byte body (the SDK passes it
 * on as given, and takes no header from it), no query, no per-request fetch options, base URL, security override or
 * idempotency key, and a client that sets no idempotency key of its own (seen on the first build). Anything else is
 * built by the SDK as before. The reused headers are read-only: if a later SDK tried to change them per request, the
 * request would fail loudly instead of leaking into another.
 */
export function reuseRequestHeaders<Client extends OpenAI>(client: Client): Client {
  const build = client.buildRequest.bind(client);
  const byHeaders = new WeakMap<object, Map<string, Promise<RequestTemplate | null>>>();
  const noHeaders = new Map<string, Promise<RequestTemplate | null>>();

  client.buildRequest = async (options, props = {}) => {
    if (!reusable(options)) return build(options, props);
    const templates = options.headers === undefined ? noHeaders : templatesOf(byHeaders, options.headers as object);
    const kind = `${options.method} ${options.path} ${options.timeout ?? ""} ${props.retryCount ?? 0}`;
    let template = templates.get(kind);
    if (!template) {
      template = build(options, props).then((built) => templateOf(built, options));
      templates.set(kind, template);
      template.catch(() => templates.delete(kind));
    }
    const made = await template;
    if (!made) return build(options, props);
    return {
      url: made.url,
      timeout: made.timeout,
      req: { ...made.req, ...(options.signal && { signal: options.signal }), body: options.body as Uint8Array<ArrayBuffer> },
    };
  };
  return client;
}

function reusable(options: RequestOptions): boolean {
  return options.body instanceof Uint8Array && options.query == null && options.fetchOptions === undefined &&
    options.defaultBaseURL === undefined && options.__security === undefined && options.idempotencyKey === undefined &&
    (options.headers === undefined || (typeof options.headers === "object" && options.headers !== null));
}

function templatesOf(
  byHeaders: WeakMap<object, Map<string, Promise<RequestTemplate | null>>>, headers: object,
): Map<string, Promise<RequestTemplate | null>> {
  let templates = byHeaders.get(headers);
  if (!templates) byHeaders.set(headers, (templates = new Map()));
  return templates;
}

/** null: the SDK gave this request an idempotency key, which is new for each request. */
function templateOf(built: BuiltRequest, options: RequestOptions): RequestTemplate | null {
  if (options.idempotencyKey !== undefined) return null;
  const { body, signal, ...req } = built.req; // the body and signal are each request's own
  return { url: built.url, timeout: built.timeout, req: { ...req, headers: ReadOnlyHeaders.of(built.req.headers) } };
}
