// The upload route is outside the proxy (so its body streams); it must refuse exactly what the proxy would.
import { afterEach, describe, expect, it } from "vitest";
import { refuseUnlessAllowed } from "@/lib/auth/guard-request";

const TOKEN = "a-long-enough-test-token-1234";
const original = process.env.SKILLBOARD_TOKEN;
afterEach(() => {
  if (original === undefined) delete process.env.SKILLBOARD_TOKEN;
  else process.env.SKILLBOARD_TOKEN = original;
});

const upload = (headers: Record<string, string>) =>
  new Request("http://127.0.0.1:3000/api/datasets?name=x&fileName=x.jsonl", { method: "POST", headers: { host: "127.0.0.1:3000", ...headers } });

describe("refuseUnlessAllowed", () => {
  it("refuses an upload without the token when one is set, and lets a bearer through", async () => {
    process.env.SKILLBOARD_TOKEN = TOKEN;
    const refused = refuseUnlessAllowed(upload({}));
    expect(refused?.status).toBe(401);
    expect(await refused?.json()).toEqual({ error: "authentication required" });
    expect(refuseUnlessAllowed(upload({ authorization: `Bearer ${TOKEN}` }))).toBeNull();
    expect(refuseUnlessAllowed(upload({ authorization: "Bearer wrong" }))?.status).toBe(401);
  });

  it("refuses a cross-site upload even without a token, and a non-loopback Host", () => {
    delete process.env.SKILLBOARD_TOKEN;
    expect(refuseUnlessAllowed(upload({}))).toBeNull();
    expect(refuseUnlessAllowed(upload({ origin: "http://evil.example" }))?.status).toBe(403);
    expect(refuseUnlessAllowed(upload({ host: "rebound.example:3000" }))?.status).toBe(403);
  });
});
