// Where the sign-in page and endpoint send the browser afterwards: only ever a path on this site.
import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/auth/safe-next-path";

/** What a browser does with the returned value as a link or a Location header on our origin. */
function resolvedOrigin(path: string): string {
  return new URL(path, "http://dashboard.test:3000").origin;
}

describe("safeNextPath", () => {
  it.each([
    ["/", "/"],
    ["/runs/3?tab=items#top", "/runs/3?tab=items#top"],
    ["/skills/../datasets", "/datasets"],
    ["/./runs", "/runs"],
    ["/runs/%2e%2e/datasets", "/datasets"],
    ["/runs?q=//evil.example", "/runs?q=//evil.example"],
    ["/runs#//evil.example", "/runs#//evil.example"],
    ["/a%2f%2fevil.example", "/a%2f%2fevil.example"],
    ["/%2f/evil.example", "/%2f/evil.example"],
    ["/%5cevil.example", "/%5cevil.example"],
  ])("keeps the same-origin path %j as %j", (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
    expect(resolvedOrigin(expected)).toBe("http://dashboard.test:3000");
  });

  it.each([
    // Absolute and protocol-relative URLs.
    "https://evil.example/",
    "http:evil.example",
    "//evil.example/x",
    "///evil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    // Dot segments that normalise to a leading "//".
    "/.//evil.example",
    "/..//evil.example",
    "/../..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2E//evil.example",
    "/%2e%2e//evil.example",
    "/.%2e//evil.example",
    "/x/%2e%2e//evil.example",
    "/.//",
    // Backslashes, which browsers read as "/".
    "/\\evil.example",
    "\\\\evil.example",
    "/.\\/evil.example",
    "/\\/evil.example",
    // Tabs, newlines and other control characters, which the URL parser drops.
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/.\t//evil.example",
    "/\u0000/evil.example",
    " //evil.example",
    // Not an absolute path, or nothing usable.
    "runs",
    "",
    // Back to the sign-in page or endpoint would loop.
    "/signin?next=/runs",
    "/./signin",
    "/api/auth/signin",
    undefined,
    null,
    42,
    ["/runs"],
  ])("replaces %j with /", (input) => expect(safeNextPath(input)).toBe("/"));
});
