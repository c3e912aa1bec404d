import http from "node:http";
import https from "node:https";
import { ReadOnlyHeaders } from "./read-only-headers";

/** One pool of kept-alive connections per process, shared by every model client (per scheme). */
const AGENTS = {
  "http:": new http.Agent({ keepAlive: true, keepAliveMsecs: 10_000, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, keepAliveMsecs: 10_000, scheduling: "lifo" }),
};

// A status that may not carry a body (the Response constructor refuses one).
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` the OpenAI SDK is given: one HTTP/1.1 request over node:http on kept-alive connections, the whole body
 * read into one Buffer. Node's built-in fetch (undici) spent ~0.15 ms of CPU per call in its WHATWG machinery (request
 * objects, web streams for a body of a few hundred bytes) in a profile of a 20,000-item run. The SDK sees the same
 * Response, and the same errors: an AbortError when its signal aborts, a TypeError("fetch failed", { cause }) when the
 * connection fails. Redirects are not followed (a model API does not redirect; the status is reported as it is).
 */
export function keepAliveFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const target = targetOf(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  if (target instanceof Error) return Promise.reject(new TypeError("fetch failed", { cause: target }));
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError());
  // Chat requests arrive as bytes (lib/model/chat-request-body.ts). A string body is encoded into a Buffer here, once:
  // written as a string, node:http joins it to the header text and flattens the two into a copy on the heap before
  // encoding it (twice the bytes sent for a two-byte string; in a 20,000-item run, when chat bodies were strings, CPU
  // per item 0.915 → 0.868 ms with the Buffer).
  const body = typeof init.body === "string"
    ? Buffer.from(init.body, "utf8")
    : init.body instanceof Uint8Array ? init.body : init.body == null ? undefined : null;
  if (body === null) return Promise.reject(new TypeError("keepAliveFetch: only a string or byte body is supported"));
  // In node:http's raw form (name, value, name, value…): given an object, ClientRequest sets each header into a map of
  // its own and then writes them out; given the list, it writes them as they are. The Host header is then ours to send.
  const given = init.headers ? rawHeadersOf(init.headers, body !== undefined) : null;
  const headers: string[] = ["host", given?.host ?? target.host];
  if (given) for (const field of given.fields) headers.push(field);
  const authorized = given?.authorized ?? false;
  // The body's own length, in place of any the caller gave (two would make the request invalid).
  if (body !== undefined) headers.push("content-length", String(body.length));
  // Credentials in the URL, as node:http sends them when no Authorization header is given.
  if (target.basicAuth && !authorized) headers.push("authorization", target.basicAuth);

  return new Promise<Response>((resolve, reject) => {
    const request = target.scheme.request({ ...target.options, method: init.method ?? "GET", headers });
    const onAbort = () => request.destroy(abortError());
    signal?.addEventListener("abort", onAbort, { once: true });
    const fail = (error: Error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error.name === "AbortError" ? error : new TypeError("fetch failed", { cause: error }));
    };
    request.once("error", fail);
    request.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("error", fail);
      response.once("close", () => {
        if (!response.complete) fail(new Error("the server closed the connection before the whole response"));
      });
      response.once("end", () => {
        signal?.removeEventListener("abort", onAbort);
        const status = response.statusCode ?? 0;
        const bytes = NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks);
        resolve(new BufferedResponse(bytes, { status, statusText: response.statusMessage }, new ReadOnlyHeaders(response.rawHeaders)));
      });
    });
    request.end(body);
  });
}

interface RawHeaders {
  /** name, value, name, value…: the fields to send as given, less Host (and Content-Length when there is a body). */
  fields: readonly string[];
  /** The Host header given, if any. */
  host: string | null;
  authorized: boolean;
}

// A client's posts reuse one read-only Headers (reused-request-headers.ts): its raw list is made once per body kind,
// not from a walk of its entries on every request.
const RAW_OF_READ_ONLY = new WeakMap<ReadOnlyHeaders, { withBody?: RawHeaders; withoutBody?: RawHeaders }>();

function rawHeadersOf(given: HeadersInit, withBody: boolean): RawHeaders {
  if (!(given instanceof ReadOnlyHeaders)) return collectRawHeaders(given, withBody);
  let kept = RAW_OF_READ_ONLY.get(given);
  if (!kept) RAW_OF_READ_ONLY.set(given, (kept = {}));
  return withBody ? (kept.withBody ??= collectRawHeaders(given, true)) : (kept.withoutBody ??= collectRawHeaders(given, false));
}

function collectRawHeaders(given: HeadersInit, withBody: boolean): RawHeaders {
  const fields: string[] = [];
  let host: string | null = null;
  let authorized = false;
  const entries = given instanceof Headers || Array.isArray(given) ? given : Object.entries(given);
  for (const [name, value] of entries) {
    const lowerName = name.toLowerCase();
    authorized ||= lowerName === "authorization";
    if (lowerName === "host") host = value;
    else if (lowerName !== "content-length" || !withBody) fields.push(name, value);
  }
  return { fields, host, authorized };
}

interface Target {
  scheme: typeof http | typeof https;
  /** The Host header: the URL's host, with its port if it has one. */
  host: string;
  /** The URL's user and password as an Authorization header's value, if it has them. */
  basicAuth: string | null;
  options: http.RequestOptions;
}

// A client posts to the same few URLs all run long: each is parsed once, not into a URL and then into request options
// for every call.
const TARGETS = new Map<string, Target | Error>();
const MAX_TARGETS = 64;

function targetOf(href: string): Target | Error {
  let target = TARGETS.get(href);
  if (target) return target;
  let url: URL;
  try {
    url = new URL(href);
  } catch (error) {
    return error as Error;
  }
  const scheme = url.protocol === "http:" ? http : url.protocol === "https:" ? https : undefined;
  target = !scheme ? new Error(`unsupported protocol ${url.protocol}`) : {
    scheme,
    host: url.host,
    basicAuth: url.username || url.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`
      : null,
    options: {
      protocol: url.protocol,
      hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      agent: AGENTS[url.protocol as keyof typeof AGENTS],
      setHost: false,
    },
  };
  if (TARGETS.size < MAX_TARGETS) TARGETS.set(href, target);
  return target;
}

/**
 * A Response whose body is already in memory (null: a status that has none): text() and json() decode the buffer
 * directly. A Response built on a Buffer wraps it in a web ReadableStream that text() then reads back chunk by chunk
 * (~0.05 ms of CPU per call in a profile of a 20,000-item run, with its garbage); `body` is still there, made on first
 * use, for code that streams. Its headers are a ReadOnlyHeaders (read-only-headers.ts), not a copy into undici's.
 */
class BufferedResponse extends Response {
  readonly #bytes: Buffer<ArrayBuffer>;

  constructor(bytes: Buffer<ArrayBuffer> | null, init: ResponseInit, headers: Headers) {
    super(null, init);
    this.#bytes = bytes ?? Buffer.alloc(0);
    let stream: ReadableStream<Uint8Array> | null = null;
    const body = bytes === null ? () => null : () => (stream ??= new Response(bytes).body);
    Object.defineProperty(this, "body", { get: body, configurable: true });
    Object.defineProperty(this, "headers", { value: headers, configurable: true });
  }

  override text(): Promise<string> {
    return Promise.resolve(this.#bytes.toString("utf8"));
  }

  override async json(): Promise<unknown> {
    return JSON.parse(this.#bytes.toString("utf8"));
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.#bytes;
    return Promise.resolve(buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer);
  }
}

function abortError(): Error {
  return new DOMException("This operation was aborted", "AbortError");
}
