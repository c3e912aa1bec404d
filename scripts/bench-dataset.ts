/**
 * A deterministic synthetic SearchQA dataset for the benchmarks, shaped like the shared peer benchmark's: a context of
 * 3–8 passages `[DOC] [TLE] title [PAR] text`, one in four of 14–24 long passages (over the 6000-character truncation
 * budget). The gold answer is the first passage's title for most items, so the test model server (which answers with
 * the first title) gets most of them right.
 */
import { seededRandom } from "../lib/stats/random";

const NAMES = ["Ada", "Boris", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kemal", "Lucia"];
const PLACES = ["Lake", "Mount", "Port", "River", "Fort", "Cape", "Glen", "Bay"];
const NOUNS = ["Treaty", "Expedition", "Sonata", "Cathedral", "Almanac", "Regatta", "Observatory", "Archive", "Bridge"];
const WORDS = ("the of and in was a to by for with is on as that from at his her it an which were founded built named after known "
  + "during century city river war king queen island poet painter novel opera harbor empire colony railway museum").split(" ");

/** `n` JSONL lines (with the trailing newline), the same for the same seed. */
export function benchDatasetJsonl(n: number, seed = 42): string {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const title = () => (random() < 0.5 ? `${pick(NAMES)} ${pick(PLACES)}` : `The ${pick(NOUNS)} of ${1700 + between(0, 320)}`);
  const text = (words: number) => `${Array.from({ length: words }, () => pick(WORDS)).join(" ")}.`;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const long = random() < 0.25;
    const titles = Array.from({ length: long ? between(14, 24) : between(3, 8) }, title);
    const context = titles.map((t, d) => `[DOC] [TLE] ${t} [PAR] ${text(d === 0 ? between(15, 40) : long ? between(60, 110) : between(15, 50))}`).join(" ");
    const answers = random() < 0.7 ? [titles[0]!] : [titles[titles.length - 1]!];
    lines.push(JSON.stringify({ id: `b${i}`, question: `Which ${text(between(8, 16)).slice(0, -1)}?`, context, answers }));
  }
  return `${lines.join("\n")}\n`;
}
