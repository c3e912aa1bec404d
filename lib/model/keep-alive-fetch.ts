import { createRequire } from "node:module";
import { ReadOnlyHeaders } from "./read-only-headers";

// What loading this costs a CLI `run` before its first model request: node:http is required, not imported (Node makes
// an ES import of a built-in sync every export of it, and node:http's WebSocket getters load undici with http2, tls,
// zlib and more: ~40 ms here); node:https (tls) only for an https:// URL; and no undici Response (BufferedResponse
// below). Headers: ./fetch-headers.ts.
const requireBuiltin = createRequire(import.meta.url);
const http = requireBuiltin("node:http") as typeof import("node:http");
let https: typeof import("node:https") | undefined;

/** One pool of kept-alive connections per process, shared by every model client (per scheme). */
const AGENTS: Partial<Record<"http:" | "https:", import("node:http").Agent>> = {};
const agentFor = (protocol: "http:" | "https:") =>
  (AGENTS[protocol] ??= new (protocol === "http:" ? http : schemeHttps()).Agent({ keepAlive: true, keepAliveMsecs: 10_000, scheduling: "lifo" }));
const schemeHttps = () => (https ??= requireBuiltin("node:https") as typeof import("node:https"));

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
  // Any Headers (in the CLI bundle there are two classes: ./fetch-headers.ts and Node's) or list of pairs is iterable;
  // a record is not.
  const entries = Symbol.iterator in given ? (given as Iterable<[string, string]>) : Object.entries(given);
  for (const [name, value] of entries) {
    const lowerName = name.toLowerCase();
    authorized ||= lowerName === "authorization";
    if (lowerName === "host") host = value;
    else if (lowerName !== "content-length" || !withBody) fields.push(name, value);
  }
  return { fields, host, authorized };
}

interface Target {
  scheme: typeof http | typeof import("node:https");
  /** The Host header: the URL's host, with its port if it has one. */
  host: string;
  /** The URL's user and password as an Authorization header's value, if it has them. */
  basicAuth: string | null;
  options: import("node:http").RequestOptions;
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
  const scheme = url.protocol === "http:" ? http : url.protocol === "https:" ? schemeHttps() : undefined;
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
      agent: agentFor(url.protocol as "http:" | "https:"),
      setHost: false,
    },
  };
  if (TARGETS.size < MAX_TARGETS) TARGETS.set(href, target);
  return target;
}

/**
 * A Response whose body is already in memory (null: a status that has none): text() and json() decode the buffer
 * directly, with no web stream between (~0.05 ms of CPU per call with one, in a profile of a 20,000-item run); `body`
 * is still there, made on first use, for code that streams or cancels it (the SDK, before a retry). Its headers are a
 * ReadOnlyHeaders (read-only-headers.ts).
 *
 * Not a subclass of Node's Response: that is undici's, and a class extending it loads undici as it is defined (see the
 * top). What the SDK reads of a response (ok, status, headers, url, body, text(), json()) is here as the Fetch standard
 * has it; only a body read twice is not refused, as Response refuses it.
 */
class BufferedResponse implements Response {
  readonly type = "basic" as const;
  readonly url = "";
  readonly redirected = false;
  readonly bodyUsed = false;
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly #bytes: Buffer<ArrayBuffer> | null;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;

  constructor(bytes: Buffer<ArrayBuffer> | null, init: { status: number; statusText?: string }, readonly headers: Headers) {
    this.#bytes = bytes;
    this.status = init.status;
    this.statusText = init.statusText ?? "";
    this.ok = init.status >= 200 && init.status <= 299;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    const bytes = this.#bytes;
    if (bytes === null) return null;
    return (this.#stream ??= new ReadableStream({
      start(controller) {
        if (bytes.length > 0) controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        controller.close();
      },
    }));
  }

  text(): Promise<string> {
    return Promise.resolve(this.#bytes?.toString("utf8") ?? "");
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#bytes?.toString("utf8") ?? "");
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#bytes ?? Buffer.alloc(0);
    return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get("content-type") ?? "" });
  }

  formData(): Promise<FormData> {
    return Promise.reject(new TypeError("keepAliveFetch: a response body is not read as form data"));
  }

  clone(): Response {
    return new BufferedResponse(this.#bytes === null ? null : Buffer.from(this.#bytes), { status: this.status, statusText: this.statusText }, this.headers);
  }
}

function abortError(): Error {
  return new DOMException("This operation was aborted", "AbortError");
}
