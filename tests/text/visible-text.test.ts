import { describe, expect, it } from "vitest";
import { clipText, visibleText } from "@/lib/text/visible-text";

describe("visibleText", () => {
  it("shows control characters as control pictures, keeping tab and line feed", () => {
    expect(visibleText("\rQuestion\r\nnext\tcol\u0000end\u007f\u001b")).toBe("\u240dQuestion\u240d\nnext\tcol\u2400end\u2421\u241b");
  });

  it("replaces lone surrogates, keeps pairs, and leaves ordinary text as it is", () => {
    expect(visibleText("a\ud800b\udc00c 🗼")).toBe("a\ufffdb\ufffdc 🗼");
    const plain = "Où est Zürich? 東京";
    expect(visibleText(plain)).toBe(plain);
  });
});

describe("clipText", () => {
  it("keeps short text whole and cuts long text at the limit, counting what is left out in characters", () => {
    expect(clipText("short", 10)).toEqual({ shown: "short", hidden: 0 });
    expect(clipText("abcdefghij", 4)).toEqual({ shown: "abcd", hidden: 6 });
  });

  it("never splits a character made of two code units", () => {
    expect(clipText("ab🗼cd", 3)).toEqual({ shown: "ab", hidden: 3 });
  });
});
