// The model clients' HTTP: requests share kept-alive connections (a run of thousands of calls opens about as many
// connections as it has calls in flight, not one per call), and the SDK still sees statuses and bodies as sent.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIChatModel, type ChatRequest } from "../../lib/model";

let server: http.Server;
let baseURL = "";
let connections = 0;
let status = 200;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
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
});
