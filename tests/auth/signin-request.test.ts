import { describe, expect, it } from "vitest";
import { readSignInRequest } from "@/lib/auth/signin-request";

const SIGNIN_URL = "http://127.0.0.1:3000/api/auth/signin";

function post(body: BodyInit, contentType?: string): Request {
  return new Request(SIGNIN_URL, { method: "POST", body, headers: contentType ? { "content-type": contentType } : {} });
}

describe("readSignInRequest", () => {
  it("reads an HTML form post", async () => {
    const body = new URLSearchParams({ token: "secret value", next: "/runs" }).toString();
    expect(await readSignInRequest(post(body, "application/x-www-form-urlencoded"))).toEqual({
      ok: true,
      json: false,
      fields: { token: "secret value", next: "/runs" },
    });
  });

  it("reads a multipart form post", async () => {
    const form = new FormData();
    form.set("token", "secret");
    expect(await readSignInRequest(new Request(SIGNIN_URL, { method: "POST", body: form }))).toEqual({
      ok: true,
      json: false,
      fields: { token: "secret" },
    });
  });

  it("reads JSON", async () => {
    expect(await readSignInRequest(post(JSON.stringify({ token: "secret" }), "application/json; charset=utf-8"))).toEqual({
      ok: true,
      json: true,
      fields: { token: "secret" },
    });
  });

  it("rejects missing, empty or non-string tokens, keeping `next` for the way back", async () => {
    expect(await readSignInRequest(post(JSON.stringify({ next: "/runs" }), "application/json"))).toEqual({ ok: false, json: true, next: "/runs" });
    expect(await readSignInRequest(post(JSON.stringify({ token: 5 }), "application/json"))).toMatchObject({ ok: false });
    expect(await readSignInRequest(post("token=", "application/x-www-form-urlencoded"))).toMatchObject({ ok: false, json: false });
    expect(await readSignInRequest(post("{not json", "application/json"))).toEqual({ ok: false, json: true, next: undefined });
  });

  it("rejects bodies over 16 KiB without reading them whole", async () => {
    const body = new URLSearchParams({ token: "x".repeat(20_000) }).toString();
    expect(await readSignInRequest(post(body, "application/x-www-form-urlencoded"))).toMatchObject({ ok: false });
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(8192).fill(120));
      },
    });
    const chunked = new Request(SIGNIN_URL, { method: "POST", body: stream, duplex: "half", headers: { "content-type": "text/plain" } } as RequestInit);
    expect(await readSignInRequest(chunked)).toMatchObject({ ok: false });
  });
});
