import { describe, expect, it } from "vitest";
import { FetchHeaders } from "@/lib/model/fetch-headers";

// The CLI bundle's `Headers` (lib/model/fetch-headers.ts) against Node's own (undici's), operation by operation.
type Op = ["append" | "set", string, string] | ["delete", string];

/** Applies the operations to both classes, and says what each made of them (or the error each threw at each step). */
function both(init: HeadersInit | undefined, ops: Op[]) {
  const run = (make: (init?: HeadersInit) => Headers) => {
    const log: string[] = [];
    let headers: Headers;
    try {
      headers = make(init);
    } catch (error) {
      return { log: [`init: ${(error as Error).name}`], headers: null };
    }
    for (const op of ops) {
      try {
        if (op[0] === "delete") headers.delete(op[1]);
        else headers[op[0]](op[1], op[2]);
        log.push("ok");
      } catch (error) {
        log.push((error as Error).name);
      }
    }
    return { log, headers };
  };
  return { ours: run((given) => new FetchHeaders(given) as unknown as Headers), node: run((given) => new Headers(given)) };
}

function view(headers: Headers | null) {
  if (!headers) return null;
  const each: string[] = [];
  headers.forEach((value, name) => each.push(`${name}=${value}`));
  return {
    entries: [...headers], keys: [...headers.keys()], values: [...headers.values()], each, setCookie: headers.getSetCookie(),
    get: ["accept", "Accept", "x-a", "set-cookie", "missing", "content-type"].map((name) => headers.get(name)),
    has: ["accept", "X-A", "missing"].map((name) => headers.has(name)),
  };
}

describe("FetchHeaders, the CLI bundle's Headers", () => {
  it("does what Node's Headers does: lower-cased names, values joined, set-cookie apart, sorted iteration", () => {
    const cases: [HeadersInit | undefined, Op[]][] = [
      [undefined, [["append", "Accept", "a"], ["append", "ACCEPT", "b"], ["set", "X-A", "1"], ["append", "Set-Cookie", "s=1"], ["append", "set-cookie", "t=2"]]],
      [{ "Content-Type": "application/json", Accept: "x" }, [["delete", "accept"], ["set", "content-type", "text/plain"]]],
      [[["b", "2"], ["a", "1"], ["B", "3"]], [["append", "set-cookie", "z=1"], ["delete", "Set-Cookie"]]],
      // Values are trimmed of HTTP whitespace; inside, spaces and tabs stay.
      [undefined, [["set", "x-a", "  padded\t "], ["append", "accept", "\t a  b \n"]]],
      [new Headers({ "X-A": "from undici" }), [["append", "x-a", "more"]]],
    ];
    for (const [init, ops] of cases) {
      const { ours, node } = both(init, ops);
      expect(ours.log).toEqual(node.log);
      expect(view(ours.headers)).toEqual(view(node.headers));
    }
  });

  it("refuses what Node's Headers refuses, with a TypeError, and keeps what it had", () => {
    const bad: Op[] = [
      ["append", "bad name", "x"], ["append", "", "x"], ["set", "x-é", "x"], ["append", "x-a", "line\nbreak"], ["set", "x-a", "nul\0"],
      ["append", "x-a", "carriage\rreturn"], ["set", "x-a", "snow ☃"], ["delete", "(x)"],
    ];
    const { ours, node } = both({ "x-a": "kept" }, bad);
    expect(node.log.every((outcome) => outcome === "TypeError")).toBe(true);
    expect(ours.log).toEqual(node.log);
    expect(view(ours.headers)).toEqual(view(node.headers));
    for (const init of [[["only-one"]], [["a", "b", "c"]], ["ab"], 42] as unknown as HeadersInit[]) {
      expect(both(init, []).ours.log).toEqual(both(init, []).node.log);
    }
  });

  it("is iterated afresh each time, and copied by Node's Headers as one of its own", () => {
    const ours = new FetchHeaders({ b: "2", a: "1" });
    expect([...ours]).toEqual([["a", "1"], ["b", "2"]]);
    expect([...ours.entries()]).toEqual([["a", "1"], ["b", "2"]]);
    ours.append("c", "3");
    expect([...ours]).toEqual([["a", "1"], ["b", "2"], ["c", "3"]]);
    expect(Object.fromEntries(new Headers(ours as unknown as Headers))).toEqual({ a: "1", b: "2", c: "3" });
    expect(Object.prototype.toString.call(ours)).toBe("[object Headers]");
  });
});
