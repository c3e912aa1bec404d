import { describe, expect, it } from "vitest";
import { bearerCredentials, hasValidCredentials, isRequestAuthorized, sessionCookieValues } from "@/lib/auth/request-auth";
import { SESSION_COOKIE_NAME, expiredSessionCookieOptions, isHttpsRequest, sessionCookieOptions } from "@/lib/auth/session-cookie";
import { configuredToken, constantTimeEqual, sessionCookieMatches, sessionCookieValue, tokenMatches } from "@/lib/auth/token";

const TOKEN = "correct-horse-battery-staple";

describe("token and cookie value", () => {
  it("reads the token from the environment, treating empty as unset", () => {
    expect(configuredToken({ SKILLBOARD_TOKEN: TOKEN })).toBe(TOKEN);
    expect(configuredToken({ SKILLBOARD_TOKEN: "" })).toBeUndefined();
    expect(configuredToken({})).toBeUndefined();
  });

  it("compares strings of any length", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN} `, TOKEN)).toBe(false);
  });

  it("derives a cookie value that is not the token and changes with it", () => {
    const value = sessionCookieValue(TOKEN);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(value).not.toContain(TOKEN);
    expect(sessionCookieValue(TOKEN)).toBe(value);
    expect(sessionCookieValue(`${TOKEN}2`)).not.toBe(value);
    expect(sessionCookieMatches(value, TOKEN)).toBe(true);
    expect(sessionCookieMatches(value, `${TOKEN}2`)).toBe(false);
    expect(sessionCookieMatches(TOKEN, TOKEN)).toBe(false); // the raw token is not a valid cookie
  });

  it("sets HttpOnly, SameSite=Lax, Path=/ and Secure only on https", () => {
    expect(SESSION_COOKIE_NAME).toBe("skillboard_token");
    expect(sessionCookieOptions(false)).toMatchObject({ httpOnly: true, sameSite: "lax", secure: false, path: "/" });
    expect(sessionCookieOptions(true).secure).toBe(true);
    expect(expiredSessionCookieOptions(false).maxAge).toBe(0);
    expect(isHttpsRequest("https://dash.example/", new Headers())).toBe(true);
    expect(isHttpsRequest("http://127.0.0.1:3000/", new Headers())).toBe(false);
    expect(isHttpsRequest("http://127.0.0.1:3000/", new Headers({ "x-forwarded-proto": "https" }))).toBe(true);
    expect(isHttpsRequest("http://127.0.0.1:3000/", new Headers({ "x-forwarded-proto": "http, https" }))).toBe(false);
  });
});

describe("request credentials", () => {
  it("reads bearer credentials", () => {
    expect(bearerCredentials(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(bearerCredentials(`bearer ${TOKEN}`)).toBe(TOKEN);
    expect(bearerCredentials(`Basic ${TOKEN}`)).toBeUndefined();
    expect(bearerCredentials("Bearer")).toBeUndefined();
    expect(bearerCredentials(null)).toBeUndefined();
  });

  it("finds every session cookie value in a Cookie header", () => {
    expect(sessionCookieValues(`a=1; ${SESSION_COOKIE_NAME}=x; b=2; ${SESSION_COOKIE_NAME}="y"`)).toEqual(["x", "y"]);
    expect(sessionCookieValues(`x${SESSION_COOKIE_NAME}=z`)).toEqual([]);
    expect(sessionCookieValues(null)).toEqual([]);
  });

  it("accepts the bearer token or the session cookie, nothing else", () => {
    const cookie = `${SESSION_COOKIE_NAME}=${sessionCookieValue(TOKEN)}`;
    expect(hasValidCredentials(new Headers({ authorization: `Bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(hasValidCredentials(new Headers({ cookie }), TOKEN)).toBe(true);
    expect(hasValidCredentials(new Headers({ cookie: `other=1; ${SESSION_COOKIE_NAME}=stale; ${cookie}` }), TOKEN)).toBe(true);
    expect(hasValidCredentials(new Headers({ authorization: "Bearer wrong-token-wrong-token" }), TOKEN)).toBe(false);
    expect(hasValidCredentials(new Headers({ cookie: `${SESSION_COOKIE_NAME}=${TOKEN}` }), TOKEN)).toBe(false);
    expect(hasValidCredentials(new Headers({ cookie: `${SESSION_COOKIE_NAME}=${sessionCookieValue("old-token-old-token")}` }), TOKEN)).toBe(false);
    expect(hasValidCredentials(new Headers(), TOKEN)).toBe(false);
  });

  it("authorizes every request when no token is configured", () => {
    expect(isRequestAuthorized(new Headers(), {})).toBe(true);
    expect(isRequestAuthorized(new Headers(), { SKILLBOARD_TOKEN: TOKEN })).toBe(false);
    expect(isRequestAuthorized(new Headers({ authorization: `Bearer ${TOKEN}` }), { SKILLBOARD_TOKEN: TOKEN })).toBe(true);
  });
});
