import { describe, expect, it } from "vitest";
import { ReadOnlyHeaders } from "@/lib/model/read-only-headers";

const RAW = ["X-Request-Id", "req_1", "Content-Type", "application/json", "Set-Cookie", "a=1", "set-cookie", "b=2", "Accept", "x", "ACCEPT", "y"];

describe("ReadOnlyHeaders", () => {
  it("iterates as undici's Headers does, as often as asked, however it is iterated", () => {
    const ours = new ReadOnlyHeaders(RAW);
    const undici = new Headers();
    for (let i = 0; i < RAW.length; i += 2) undici.append(RAW[i]!, RAW[i + 1]!);
    const expected = [...undici];
    expect(expected).toEqual([
      ["accept", "x, y"], ["content-type", "application/json"], ["set-cookie", "a=1"], ["set-cookie", "b=2"], ["x-request-id", "req_1"],
    ]);
    // Each iteration starts from the first entry (the SDK iterates a request's headers on every call).
    expect([...ours]).toEqual(expected);
    expect([...ours]).toEqual(expected);
    expect([...ours.entries()]).toEqual(expected);
    expect(Object.fromEntries(ours)).toEqual(Object.fromEntries(undici));
    expect([...ours.keys()]).toEqual([...undici.keys()]);
    expect([...ours.values()]).toEqual([...undici.values()]);
    const seen: string[] = [];
    ours.forEach((value, name) => seen.push(`${name}=${value}`));
    expect(seen).toEqual(expected.map(([name, value]) => `${name}=${value}`));
    const iterator = ours[Symbol.iterator]();
    expect(iterator.next()).toEqual({ value: ["accept", "x, y"], done: false });
    expect([...iterator]).toHaveLength(expected.length - 1);
    expect(ours.get("accept")).toBe("x, y");
    expect(ours.getSetCookie()).toEqual(["a=1", "b=2"]);
  });

  it("cannot be changed, through its methods or the pairs it hands out", () => {
    const ours = new ReadOnlyHeaders(RAW);
    const asHeaders: Headers = ours;
    expect(() => asHeaders.set("accept", "z")).toThrow(TypeError);
    expect(() => asHeaders.append("accept", "z")).toThrow(TypeError);
    expect(() => asHeaders.delete("accept")).toThrow(TypeError);
    const [first] = ours;
    expect(() => {
      (first as string[])[1] = "z";
    }).toThrow(TypeError);
    expect(ours.get("accept")).toBe("x, y");
    expect([...ours][0]).toEqual(["accept", "x, y"]);
  });
});
