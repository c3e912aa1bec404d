// Log streams that a reader can close, and that never show a secret (lib/process/output-streams.ts).
import { once } from "node:events";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { guardOutputStream, redactWrites } from "@/lib/process/output-streams";

/** A stream that records what reaches it, and fails every write with EPIPE once `close()` is called, like a closed pipe. */
function pipeLike() {
  const received: string[] = [];
  let closed = false;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (closed) return done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      received.push(chunk.toString("utf8"));
      done();
    },
  });
  return { stream, received, close: () => (closed = true) };
}

describe("guardOutputStream", () => {
  it("drops writes once one has failed, without an unhandled error", async () => {
    const { stream, received, close } = pipeLike();
    const state = guardOutputStream(stream);
    stream.write("before\n");
    close();
    stream.write("lost\n");
    await once(stream, "error");
    expect(state.closed).toBe(true);
    let called = false;
    expect(stream.write("after\n", () => (called = true))).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(called).toBe(true);
    expect(received).toEqual(["before\n"]);
  });
});

describe("redactWrites", () => {
  it("redacts strings and buffers written to the stream", async () => {
    const { stream, received } = pipeLike();
    redactWrites(stream);
    stream.write("error: http://user:sk-live-0123456789abcdef@host/v1\n");
    stream.write(Buffer.from("Authorization: Bearer abc.def-ghi_jkl\n"));
    stream.write("nothing secret\n");
    await new Promise((resolve) => stream.end(resolve));
    expect(received.join("")).toBe("error: http://[redacted]@host/v1\nAuthorization: Bearer [redacted]\nnothing secret\n");
  });
});
