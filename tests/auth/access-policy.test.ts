import { describe, expect, it } from "vitest";
import { decideAccess, type RequestFacts } from "@/lib/auth/access-policy";
import { SESSION_COOKIE_NAME } from "@/lib/auth/session-cookie";
import { sessionCookieValue } from "@/lib/auth/token";

const TOKEN = "correct-horse-battery-staple";
const HOST = "127.0.0.1:3000";

function request(method: string, path: string, headers: Record<string, string> = {}): RequestFacts {
  const url = new URL(path, `http://${HOST}`);
  return { method, pathname: url.pathname, search: url.search, headers: new Headers({ host: HOST, ...headers }) };
}

const AUTH_REQUIRED = { kind: "refuse", status: 401, error: "authentication required" };

describe("with SKILLBOARD_TOKEN set", () => {
  it("sends unauthenticated page requests to the sign-in page, keeping the path", () => {
    expect(decideAccess(request("GET", "/"), TOKEN)).toEqual({ kind: "sign-in", location: "/signin?next=%2F" });
    expect(decideAccess(request("GET", "/runs/3?tab=items"), TOKEN)).toEqual({
      kind: "sign-in",
      location: "/signin?next=%2Fruns%2F3%3Ftab%3Ditems",
    });
    expect(decideAccess(request("HEAD", "/skills"), TOKEN).kind).toBe("sign-in");
  });

  it("refuses route handlers, server actions, other methods and downloads with 401", () => {
    expect(decideAccess(request("GET", "/api/auth/check"), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("GET", "/api"), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("POST", "/runs", { "next-action": "abc123" }), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("POST", "/"), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("DELETE", "/api/runs/1"), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("GET", "/runs/3/results.csv"), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("POST", "/api/auth/signout"), TOKEN)).toEqual(AUTH_REQUIRED);
  });

  it("leaves the sign-in page and endpoint open", () => {
    expect(decideAccess(request("GET", "/signin?next=%2Fruns"), TOKEN)).toEqual({ kind: "allow" });
    expect(decideAccess(request("POST", "/api/auth/signin"), TOKEN)).toEqual({ kind: "allow" });
    // …but only those methods: a server action posted to /signin still needs the token.
    expect(decideAccess(request("POST", "/signin", { "next-action": "x" }), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("GET", "/api/auth/signin"), TOKEN)).toEqual(AUTH_REQUIRED);
  });

  it("leaves Next's static build output open to reads, and nothing else", () => {
    expect(decideAccess(request("GET", "/_next/static/chunks/app.js"), TOKEN)).toEqual({ kind: "allow" });
    expect(decideAccess(request("HEAD", "/_next/static/css/app.css"), TOKEN)).toEqual({ kind: "allow" });
    // Next runs a server action posted to any path it renders, a 404 included.
    expect(decideAccess(request("POST", "/_next/static/x", { "next-action": "x" }), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("POST", "/favicon.ico", { "next-action": "x" }), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("POST", "/_next/imagex", { "next-action": "x" }), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("GET", "/_next/staticx/a.js"), TOKEN)).toEqual(AUTH_REQUIRED);
    expect(decideAccess(request("GET", "/_next/image?url=%2Fx&w=64&q=75"), TOKEN).kind).not.toBe("allow");
  });

  it("lets requests with the bearer token or the session cookie through", () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const cookie = { cookie: `${SESSION_COOKIE_NAME}=${sessionCookieValue(TOKEN)}` };
    for (const credentials of [bearer, cookie]) {
      expect(decideAccess(request("GET", "/", credentials), TOKEN)).toEqual({ kind: "allow" });
      expect(decideAccess(request("GET", "/api/auth/check", credentials), TOKEN)).toEqual({ kind: "allow" });
      expect(decideAccess(request("POST", "/runs", { ...credentials, "next-action": "x" }), TOKEN)).toEqual({ kind: "allow" });
    }
    expect(decideAccess(request("GET", "/api/auth/check", { authorization: "Bearer nope" }), TOKEN)).toEqual(AUTH_REQUIRED);
  });

  it("refuses cross-origin state-changing requests even with the cookie", () => {
    const cookie = `${SESSION_COOKIE_NAME}=${sessionCookieValue(TOKEN)}`;
    const refused = { kind: "refuse", status: 403, error: "cross-origin request refused" };
    expect(decideAccess(request("POST", "/api/runs", { cookie, origin: "http://127.0.0.1:8080" }), TOKEN)).toEqual(refused);
    expect(decideAccess(request("POST", "/api/runs", { cookie, origin: "null" }), TOKEN)).toEqual(refused);
    expect(decideAccess(request("POST", "/api/auth/signin", { origin: "https://evil.example" }), TOKEN)).toEqual(refused);
    expect(decideAccess(request("POST", "/api/runs", { cookie, origin: `http://${HOST}` }), TOKEN)).toEqual({ kind: "allow" });
    // Behind a reverse proxy the browser's host arrives in X-Forwarded-Host.
    expect(
      decideAccess(request("POST", "/api/runs", { cookie, origin: "https://dash.example", "x-forwarded-host": "dash.example" }), TOKEN),
    ).toEqual({ kind: "allow" });
    // Reading is fine from anywhere (the cookie is SameSite=Lax, and reads change nothing).
    expect(decideAccess(request("GET", "/", { cookie, origin: "http://127.0.0.1:8080" }), TOKEN)).toEqual({ kind: "allow" });
  });

  it("does not depend on the Host header when a token is set", () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect(decideAccess(request("GET", "/", { ...bearer, host: "dash.example" }), TOKEN)).toEqual({ kind: "allow" });
  });
});

describe("without SKILLBOARD_TOKEN", () => {
  it("lets every request addressed to a loopback name through", () => {
    for (const host of ["127.0.0.1:3000", "localhost:3000", "[::1]:3000", "localhost"]) {
      expect(decideAccess(request("GET", "/api/auth/check", { host }), undefined)).toEqual({ kind: "allow" });
      expect(decideAccess(request("POST", "/runs", { host, "next-action": "x", origin: `http://${host}` }), undefined)).toEqual({ kind: "allow" });
    }
  });

  it("refuses other Host names (DNS rebinding) and cross-origin posts", () => {
    const loopbackOnly = { kind: "refuse", status: 403, error: expect.stringContaining("only answers on localhost") };
    expect(decideAccess(request("GET", "/", { host: "rebind.evil.example:3000" }), undefined)).toEqual(loopbackOnly);
    expect(decideAccess(request("GET", "/", { host: "evil.com@127.0.0.1" }), undefined)).toEqual(loopbackOnly);
    expect(decideAccess({ ...request("GET", "/"), headers: new Headers() }, undefined)).toEqual(loopbackOnly);
    expect(decideAccess(request("POST", "/runs", { "next-action": "x", origin: "https://evil.example" }), undefined)).toEqual({
      kind: "refuse",
      status: 403,
      error: "cross-origin request refused",
    });
  });
});
