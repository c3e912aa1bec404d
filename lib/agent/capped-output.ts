/** Text a process printed, as kept: whole when it fit the cap, else its beginning and its end. */
export interface CapturedText {
  /** What is stored and shown: the whole output, or head + a note of what was left out + tail. */
  text: string;
  /** Everything kept from the end of the output (all of it when nothing was cut). */
  tail: string;
  /** Everything kept from the beginning, when something was cut ("" otherwise). */
  head: string;
  /** Bytes the process wrote in all. */
  bytes: number;
  truncated: boolean;
}

/**
 * Collects a stream up to `capBytes`: the first quarter of the cap from the start of the output and the rest
 * from its end, so a flood never fills memory and the answer an agent prints last is still there.
 */
export class CappedOutput {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(capBytes: number) {
    this.headCap = Math.floor(capBytes / 4);
    this.tailCap = capBytes - this.headCap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headBytes < this.headCap) {
      const take = Math.min(chunk.length, this.headCap - this.headBytes);
      this.head.push(chunk.subarray(0, take));
      this.headBytes += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0) return;
    if (chunk.length >= this.tailCap) {
      this.tail = [Buffer.from(chunk.subarray(chunk.length - this.tailCap))];
      this.tailBytes = this.tailCap;
      return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > this.tailCap) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  get bytes(): number {
    return this.total;
  }

  snapshot(): CapturedText {
    const kept = this.headBytes + this.tailBytes;
    const truncated = this.total > kept;
    if (!truncated) {
      const whole = Buffer.concat([...this.head, ...this.tail]).toString("utf8");
      return { text: whole, tail: whole, head: "", bytes: this.total, truncated: false };
    }
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    const note = `\n[… ${this.total - kept} bytes left out: output over ${kept} bytes …]\n`;
    return { text: head + note + tail, tail, head, bytes: this.total, truncated: true };
  }
}
