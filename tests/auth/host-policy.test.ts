import { describe, expect, it } from "vitest";
import { checkStartPolicy, isLoopbackHost, tokenProblem } from "@/lib/auth/host-policy.mjs";

const TOKEN = "0123456789abcdef"; // exactly the 16-character minimum

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.255.255.254", "127.1", "localhost", "LocalHost", "localhost.", "::1", "[::1]", "0:0:0:0:0:0:0:1", " 127.0.0.1 "])(
    "%j is loopback",
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );

  it.each([
    "0.0.0.0",
    "::",
    "[::]",
    "192.168.1.20",
    "10.0.0.1",
    "example.com",
    "127.0.0.1.nip.io",
    "localhost.example.com",
    "127.256.0.1",
    "127.0.0.1:3000",
    "evil.com@127.0.0.1",
    "127.0.0.1/x",
    "::ffff:127.0.0.1",
    "",
  ])("%j is not loopback", (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe("checkStartPolicy", () => {
  it("defaults to 127.0.0.1:3000 and needs no token there", () => {
    expect(checkStartPolicy({})).toEqual({ ok: true, host: "127.0.0.1", port: 3000 });
    expect(checkStartPolicy({ SKILLBOARD_HOST: "", PORT: "" })).toEqual({ ok: true, host: "127.0.0.1", port: 3000 });
  });

  it("allows any loopback host and port without a token", () => {
    expect(checkStartPolicy({ SKILLBOARD_HOST: "::1", PORT: "8080" })).toEqual({ ok: true, host: "::1", port: 8080 });
    expect(checkStartPolicy({ SKILLBOARD_HOST: "localhost" })).toEqual({ ok: true, host: "localhost", port: 3000 });
  });

  it.each([undefined, "", "short-token"])("refuses a non-loopback host when the token is %j", (token) => {
    const policy = checkStartPolicy({ SKILLBOARD_HOST: "0.0.0.0", SKILLBOARD_TOKEN: token });
    expect(policy.ok).toBe(false);
    if (policy.ok) return;
    expect(policy.message).toContain("Refusing to listen on 0.0.0.0");
    expect(policy.message).toContain("SKILLBOARD_TOKEN");
    if (token) expect(policy.message).not.toContain(token);
  });

  it("allows a non-loopback host with a token of at least 16 characters", () => {
    expect(checkStartPolicy({ SKILLBOARD_HOST: "0.0.0.0", SKILLBOARD_TOKEN: TOKEN, PORT: "4000" })).toEqual({
      ok: true,
      host: "0.0.0.0",
      port: 4000,
    });
  });

  it.each([
    ["16 spaces", " ".repeat(16), "fewer than 16 characters other than spaces"],
    ["padded short token", `   short-token    `, "fewer than 16 characters other than spaces"],
    ["one repeated character", "a".repeat(40), "too predictable"],
    ["two alternating characters", "ab".repeat(16), "too predictable"],
    ["a short cycle", "abcd".repeat(4), "too predictable"],
    ["mostly one character", `${"0".repeat(30)}12345`, "too predictable"],
  ])("refuses a weak token (%s) on any host, saying why without repeating it", (_label, token, reason) => {
    for (const host of ["0.0.0.0", "127.0.0.1"]) {
      const policy = checkStartPolicy({ SKILLBOARD_HOST: host, SKILLBOARD_TOKEN: token });
      expect(policy.ok).toBe(false);
      if (policy.ok) continue;
      expect(policy.message).toContain(reason);
      expect(policy.message).toContain("openssl rand -hex 32");
      expect(policy.message).toContain(`Refusing to listen on ${host}`);
      if (token.trim()) expect(policy.message).not.toContain(token.trim());
    }
  });

  it.each([
    TOKEN,
    "c0ffee-4b1d-9a7e-53d2-e61f",
    "correct horse battery staple",
    "3f9a0c71d2b84e65", // 16 random hex digits
    "Zm9vYmFyYmF6cXV4MTIzNDU2",
  ])("accepts the token %j", (token) => {
    expect(tokenProblem(token)).toBeUndefined();
    expect(checkStartPolicy({ SKILLBOARD_HOST: "0.0.0.0", SKILLBOARD_TOKEN: token }).ok).toBe(true);
  });

  it.each(["abc", "-1", "65536", "3000.5", "1e3"])("refuses PORT=%j", (port) => {
    const policy = checkStartPolicy({ PORT: port });
    expect(policy).toEqual({ ok: false, message: expect.stringContaining("PORT must be a number") });
  });
});
