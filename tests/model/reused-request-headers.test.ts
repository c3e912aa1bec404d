// A client whose URL and headers are built once per kind of request sends, request after request, exactly what the SDK
// builds for each; a request of another kind (its own headers, a query, a retry, an idempotency key) gets its own.
import http from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { keepAliveFetch } from "../../lib/model/keep-alive-fetch";
import { reuseRequestHeaders } from "../../lib/model/reused-request-headers";

interface Received { method: string; url: string; rawHeaders: string[]; body: string }

let server: http.Server;
let baseURL = "";
let received: Received[] = [];
/** Requests to answer 500 before answering 200 (with Retry-After-Ms: 1, so the SDK's retry does not wait). */
let failNext = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString("utf8") });
      if (req.url?.includes("slow")) {
        setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), 2_000).unref();
        return;
      }
      if (failNext > 0) {
        failNext--;
        res.writeHead(500, { "content-type": "application/json", "retry-after-ms": "1" }).end('{"error":{"message":"later"}}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echo: received.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  failNext = 0;
});

const JSON_CONTENT = Object.freeze({ "content-type": "application/json" });
const options = { apiKey: "sk-reuse-test", organization: null, project: null, maxRetries: 0, timeout: 30_000, logLevel: "off", fetch: keepAliveFetch } as const;
const bytes = (text: string) => Buffer.from(text, "utf8");

/** What the server saw of a request, less the body: the request line and the header list as sent. */
const head = (r: Received) => ({ method: r.method, url: r.url, rawHeaders: r.rawHeaders.filter((_, i) => r.rawHeaders[i - (i % 2)]!.toLowerCase() !== "content-length") });

describe("reused request headers", () => {
  it("sends every request with the headers and URL the SDK builds for it, and each request's own body", async () => {
    const reused = reuseRequestHeaders(new OpenAI({ ...options, baseURL }));
    const plain = new OpenAI({ ...options, baseURL });
    // Concurrent first requests share one build; later ones reuse it.
    await Promise.all(["a", "b", "c"].map((x) => reused.post("/chat/completions", { body: bytes(`{"x":"${x}"}`), headers: JSON_CONTENT })));
    await reused.post("/chat/completions", { body: bytes('{"x":"d"}'), headers: JSON_CONTENT });
    await plain.post("/chat/completions", { body: bytes('{"x":"e"}'), headers: JSON_CONTENT });

    expect(received.map((r) => r.body).sort()).toEqual(['{"x":"a"}', '{"x":"b"}', '{"x":"c"}', '{"x":"d"}', '{"x":"e"}']);
    const sdkBuilt = head(received[4]!);
    expect(sdkBuilt.url).toBe("/v1/chat/completions");
    expect(sdkBuilt.rawHeaders).toEqual(expect.arrayContaining(["authorization", "Bearer sk-reuse-test", "x-stainless-retry-count", "0"]));
    for (const r of received.slice(0, 4)) expect(head(r)).toEqual(sdkBuilt);
  });

  it("gives each request its own signal: aborting one leaves the others", async () => {
    const reused = reuseRequestHeaders(new OpenAI({ ...options, baseURL }));
    await reused.post("/chat/completions", { body: bytes("{}"), headers: JSON_CONTENT });
    const controller = new AbortController();
    const aborted = reused.post("/slow/chat/completions", { body: bytes("{}"), headers: JSON_CONTENT, signal: controller.signal });
    const other = reused.post("/chat/completions", { body: bytes('{"other":1}'), headers: JSON_CONTENT });
    setTimeout(() => controller.abort(), 50);
    await expect(aborted).rejects.toThrow(/abort/i);
    await expect(other).resolves.toEqual({ echo: expect.any(Number) });
  });

  it("builds a request of another kind as the SDK does: other headers, a query, another path, a string body", async () => {
    const reused = reuseRequestHeaders(new OpenAI({ ...options, baseURL }));
    await reused.post("/chat/completions", { body: bytes("{}"), headers: JSON_CONTENT });
    await reused.post("/chat/completions", { body: bytes("{}"), headers: { ...JSON_CONTENT, "x-trace": "t1" } });
    await reused.post("/chat/completions", { body: bytes("{}"), headers: JSON_CONTENT, query: { "api-version": "v9" } });
    await reused.post("/embeddings", { body: bytes("{}"), headers: JSON_CONTENT });
    await reused.post("/chat/completions", { body: { as: "json" } });

    const [first, traced, queried, embeddings, json] = received;
    expect(header(first!, "x-trace")).toBeUndefined();
    expect(header(traced!, "x-trace")).toBe("t1");
    expect(queried!.url).toBe("/v1/chat/completions?api-version=v9");
    expect(embeddings!.url).toBe("/v1/embeddings");
    expect(json!.body).toBe('{"as":"json"}');
    expect(header(json!, "content-type")).toBe("application/json");
  });

  it("builds the SDK's retry of a request with its own attempt count", async () => {
    const reused = reuseRequestHeaders(new OpenAI({ ...options, baseURL, maxRetries: 2 }));
    await reused.post("/chat/completions", { body: bytes("{}"), headers: JSON_CONTENT });
    failNext = 1;
    await reused.post("/chat/completions", { body: bytes("{}"), headers: JSON_CONTENT });
    expect(received.map((r) => header(r, "x-stainless-retry-count"))).toEqual(["0", "0", "1"]);
  });

  it("gives every request its own idempotency key when the client sets one", async () => {
    class IdempotentClient extends OpenAI {
      protected override idempotencyHeader = "Idempotency-Key";
    }
    const reused = reuseRequestHeaders(new IdempotentClient({ ...options, baseURL }));
    for (let i = 0; i < 3; i++) await reused.post("/chat/completions", { body: bytes("{}"), headers: JSON_CONTENT });
    const keys = received.map((r) => header(r, "idempotency-key"));
    expect(keys.every((key) => typeof key === "string" && key.length > 0)).toBe(true);
    expect(new Set(keys).size).toBe(3);
  });

  it("hands out read-only headers that iterate as the SDK's own do, every time", async () => {
    const client = new OpenAI({ ...options, baseURL });
    const sdkBuilt = await client.buildRequest({ method: "post", path: "/chat/completions", body: bytes("{}"), headers: JSON_CONTENT });
    const reused = reuseRequestHeaders(new OpenAI({ ...options, baseURL }));
    const requestOptions = { method: "post", path: "/chat/completions", body: bytes("{}"), headers: JSON_CONTENT } as const;
    await reused.buildRequest({ ...requestOptions });
    const { req, url } = await reused.buildRequest({ ...requestOptions });
    expect(url).toBe(sdkBuilt.url);
    expect([...req.headers]).toEqual([...sdkBuilt.req.headers]);
    expect([...req.headers]).toEqual([...sdkBuilt.req.headers]);
    expect(req.headers.get("Authorization")).toBe("Bearer sk-reuse-test");
    expect(() => req.headers.set("authorization", "Bearer other")).toThrow(TypeError);
    const [pair] = [...req.headers];
    expect(() => { pair![1] = "changed"; }).toThrow(TypeError);
    expect([...req.headers]).toEqual([...sdkBuilt.req.headers]);
  });
});

function header(r: Received, name: string): string | undefined {
  const i = r.rawHeaders.findIndex((field, index) => index % 2 === 0 && field.toLowerCase() === name);
  return i < 0 ? undefined : r.rawHeaders[i + 1];
}
