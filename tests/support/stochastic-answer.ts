/**
 * A stochastic model for repeated-trial tests, for makeItems() items: item i is always right (i % 3 = 0), always wrong
 * (i % 3 = 1), or right with chance 1/2 per sample, drawn from a seeded hash of (item, sample number). The n-th
 * request for an item is its n-th sample whichever trial it serves, so the set of flaky items is known in advance.
 */
import { createHash } from "node:crypto";
import type { FakeChatRequest } from "./fake-openai-server";

export const clueIndexOf = (text: string) => Number(/clue number (\d+)\?/.exec(text)?.[1]);

export function sampleIsRight(index: number, sample: number): boolean {
  if (index % 3 === 0) return true;
  if (index % 3 === 1) return false;
  return createHash("sha256").update(`${index}:${sample}`).digest()[0]! < 128;
}

/** The fake server's `answer` for the model above (a fresh count of samples per call). */
export function stochasticAnswer() {
  const samples = new Map<number, number>();
  return (req: FakeChatRequest) => {
    const user = req.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
    const index = clueIndexOf(user);
    const sample = (samples.get(index) ?? 0) + 1;
    samples.set(index, sample);
    return `Reasoning...\n<answer>${sampleIsRight(index, sample) ? `Answer ${index}` : "Nobody"}</answer>`;
  };
}

/** How many of the first `samples` samples of item `index` are right. */
export function rightSamples(index: number, samples: number): number {
  return Array.from({ length: samples }, (_, i) => i + 1).filter((sample) => sampleIsRight(index, sample)).length;
}
