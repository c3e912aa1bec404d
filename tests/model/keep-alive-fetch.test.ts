// The model clients' HTTP: requests share kept-alive connections (a run of thousands of calls opens about as many
// connections as it has calls in flight, not one per call), and the SDK still sees statuses and bodies as sent.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIChatModel, type ChatRequest } from "../../lib/model";
import { FetchHeaders } from "../../lib/model/fetch-headers";
import { keepAliveFetch } from "../../lib/model/keep-alive-fetch";
import { ReadOnlyHeaders } from "../../lib/model/read-only-headers";

let server: http.Server;
let baseURL = "";
let connections = 0;
let status = 200;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    if (req.url === "/headers") {
      // Mixed case, a repeated field and two cookies: what a proxy in front of a model API may send.
      res.setHeader("X-Request-Id", "req_123");
      res.setHeader("Retry-After", "7");
      res.setHeader("X-Multi", ["a", "b"]);
      res.setHeader("Set-Cookie", ["s=1; Path=/", "t=2"]);
      res.setHeader("content-type", "application/json");
      res.end('{"ok":true}');
      return;
    }
    if (req.url?.startsWith("/echo")) {
      // What arrived: the request line, the headers as sent (their case and order) and the body.
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") }));
      });
      return;
    }
    if (req.url === "/big") {
      // A body of several reads, with characters split across them.
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ text: "é☃".repeat(40_000) }));
      return;
    }
    if (req.url === "/empty") {
      res.writeHead(204, { "X-Request-Id": "req_204" });
      res.end();
      return;
    }
    req.on("end", () => {
      const body = status === 200
        ? { id: "c", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "<answer>Paris</answer>" }, finish_reason: "stop" }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }
        : { error: { message: "no such model", type: "invalid_request_error", code: "model_not_found" } };
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request: ChatRequest = { messages: [{ role: "user", content: "## Question\nWhich city?" }], maxCompletionTokens: 16 };

describe("model HTTP connections", () => {
  it("reuses kept-alive connections across calls and across clients", async () => {
    connections = 0;
    status = 200;
    const first = createOpenAIChatModel({ baseURL, model: "m", callTimeoutMs: 5_000, maxRetries: 0 });
    for (let i = 0; i < 20; i++) expect((await first.complete(request)).text).toBe("<answer>Paris</answer>");
    expect(connections).toBe(1);
    const second = createOpenAIChatModel({ baseURL, model: "m", callTimeoutMs: 5_000, maxRetries: 0 });
    const replies = await Promise.all(Array.from({ length: 8 }, () => second.complete(request)));
    expect(replies.map((reply) => reply.promptTokens)).toEqual(Array(8).fill(3));
    expect(connections).toBeLessThanOrEqual(8);
    const before = connections;
    await Promise.all(Array.from({ length: 8 }, () => second.complete(request)));
    expect(connections).toBe(before);
  });

  it("reports an error status with the server's message", async () => {
    status = 404;
    const model = createOpenAIChatModel({ baseURL, model: "m", callTimeoutMs: 5_000, maxRetries: 0 });
    await expect(model.complete(request)).rejects.toThrow(/404[\s\S]*no such model/);
    status = 200;
  });

  it("gives the headers as the built-in fetch does: case-insensitive, combined, sorted, set-cookie apart, read-only", async () => {
    const url = baseURL.replace(/\/v1$/, "/headers");
    const [ours, builtIn] = await Promise.all([keepAliveFetch(url), fetch(url)]);
    expect(ours.headers).toBeInstanceOf(Headers);
    expect(ours.headers.get("x-request-id")).toBe("req_123");
    expect(ours.headers.get("X-REQUEST-ID")).toBe("req_123");
    expect(ours.headers.get("x-multi")).toBe("a, b");
    expect(ours.headers.get("missing")).toBeNull();
    expect(ours.headers.has("Retry-After")).toBe(true);
    expect(ours.headers.getSetCookie()).toEqual(["s=1; Path=/", "t=2"]);
    const withoutDate = (headers: Headers) => [...headers].filter(([name]) => name !== "date");
    expect(withoutDate(ours.headers)).toEqual(withoutDate(builtIn.headers));
    expect([...ours.headers.keys()]).toEqual([...builtIn.headers.keys()]);
    expect(Object.fromEntries(new Headers(ours.headers))["x-request-id"]).toBe("req_123");
    expect(() => ours.headers.set("x-request-id", "forged")).toThrow(TypeError);
    expect(ours.headers.get("x-request-id")).toBe("req_123");
    expect(await ours.json()).toEqual({ ok: true });
    await builtIn.arrayBuffer();
  });

  it("sends the request the built-in fetch sends: method, path and query, Host, the caller's headers, the body's length", async () => {
    const url = baseURL.replace(/\/v1$/, "/echo/chat?api-version=1");
    const init = {
      method: "POST",
      headers: new Headers({ Authorization: "Bearer sk-test", "Content-Type": "application/json", "X-Custom": "1" }),
      body: Buffer.from('{"q":"Où?"}'),
    };
    const [ours, builtIn] = await Promise.all([keepAliveFetch(url, init), fetch(url, init)]);
    type Echo = { headers: Record<string, string> };
    const [sent, reference] = (await Promise.all([ours.json(), builtIn.json()])) as [Echo, Echo];
    // The built-in fetch adds its own accept, accept-language, sec-fetch-mode, user-agent and accept-encoding.
    const fields = ["authorization", "connection", "content-length", "content-type", "host", "x-custom"];
    const pick = (echo: Echo) => ({ ...echo, headers: Object.fromEntries(fields.map((name) => [name, echo.headers[name]])) });
    expect(pick(sent)).toEqual(pick(reference));
    expect(sent).toMatchObject({ method: "POST", url: "/echo/chat?api-version=1", body: '{"q":"Où?"}', headers: { host: new URL(url).host, "content-length": "12" } });
  });

  it("takes the caller's headers from Node's Headers, the CLI bundle's (fetch-headers.ts), a list of pairs or a record", async () => {
    const url = `${baseURL.replace(/\/v1$/, "/echo")}`;
    const inits: HeadersInit[] = [
      new Headers({ "X-Caller": "yes" }), new FetchHeaders({ "X-Caller": "yes" }) as unknown as Headers, [["X-Caller", "yes"]], { "X-Caller": "yes" },
    ];
    for (const headers of inits) {
      const echo = (await (await keepAliveFetch(url, { headers })).json()) as { headers: Record<string, string> };
      expect(echo.headers["x-caller"]).toBe("yes");
    }
  });

  it("sends one Content-Length, the body's, whatever length the caller's headers name", async () => {
    const url = baseURL.replace(/\/v1$/, "/echo");
    const response = await keepAliveFetch(url, { method: "POST", headers: { "Content-Length": "999", host: "models.example" }, body: "héllo" });
    const echo = (await response.json()) as { body: string; headers: Record<string, string> };
    expect(response.status).toBe(200);
    expect(echo).toMatchObject({ body: "héllo", headers: { "content-length": "6", host: "models.example" } });
  });

  it("sends a read-only Headers given again and again as it is each time, each request with its own body's length", async () => {
    const url = baseURL.replace(/\/v1$/, "/echo");
    const headers = new ReadOnlyHeaders(["Authorization", "Bearer sk-test", "Host", "models.example", "X-Custom", "1"]);
    type Echo = { method: string; body: string; headers: Record<string, string> };
    const send = async (init: RequestInit) => (await (await keepAliveFetch(url, { headers, ...init })).json()) as Echo;
    const sent = [await send({ method: "POST", body: "a" }), await send({ method: "GET" }), await send({ method: "POST", body: "héllo" })];
    expect(sent.map((echo) => [echo.method, echo.body, echo.headers["content-length"]])).toEqual([["POST", "a", "1"], ["GET", "", undefined], ["POST", "héllo", "6"]]);
    for (const echo of sent) expect(echo.headers).toMatchObject({ authorization: "Bearer sk-test", host: "models.example", "x-custom": "1" });
  });

  it("sends a URL's credentials as node:http does, unless an Authorization header is given", async () => {
    const url = new URL(baseURL.replace(/\/v1$/, "/echo"));
    url.username = "user%40corp";
    url.password = "p%3Ass";
    const echo = async (init?: RequestInit) => ((await (await keepAliveFetch(url.href, init)).json()) as { url: string; headers: Record<string, string> });
    const plain = await echo();
    expect(plain.headers.authorization).toBe(`Basic ${Buffer.from("user@corp:p:ss").toString("base64")}`);
    expect(plain.headers.host).toBe(url.host);
    expect((await echo({ headers: { authorization: "Bearer sk-test" } })).headers.authorization).toBe("Bearer sk-test");
  });

  it("refuses a scheme it cannot speak, and a URL that is not one, as fetch fails", async () => {
    await expect(keepAliveFetch("ftp://127.0.0.1/v1")).rejects.toMatchObject({ name: "TypeError", message: "fetch failed", cause: { message: "unsupported protocol ftp:" } });
    await expect(keepAliveFetch("not a url")).rejects.toMatchObject({ name: "TypeError", message: "fetch failed" });
  });

  it("gives a body as the built-in fetch's Response does: text, JSON, bytes, a stream to read or cancel, a copy", async () => {
    const url = baseURL.replace(/\/v1$/, "/big");
    const [ours, builtIn] = await Promise.all([keepAliveFetch(url), fetch(url)]);
    const expected = await builtIn.text();
    expect([ours.status, ours.ok, ours.statusText, ours.url, ours.redirected]).toEqual([200, true, "OK", "", false]);
    expect(await ours.text()).toBe(expected);
    expect(await ours.json()).toEqual(JSON.parse(expected));
    expect(Buffer.from(await ours.bytes()).toString("utf8")).toBe(expected);
    expect(await (await ours.blob()).text()).toBe(expected);
    expect(await ours.clone().text()).toBe(expected);
    // The body as a web stream: the same bytes, and the same stream each time it is asked for.
    expect(ours.body).toBe(ours.body);
    const chunks: Uint8Array[] = [];
    const reader = ours.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(expected);
    // What the SDK does with a body it will not read before a retry.
    const again = await keepAliveFetch(url);
    await expect(again.body!.cancel()).resolves.toBeUndefined();
    await expect(again.formData()).rejects.toThrow(TypeError);
  });

  it("gives a bodiless status a null body and its headers", async () => {
    const response = await keepAliveFetch(baseURL.replace(/\/v1$/, "/empty"));
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(await response.text()).toBe("");
    expect(response.headers.get("x-request-id")).toBe("req_204");
  });
});
