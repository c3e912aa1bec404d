/** `cache info` (the response cache's size, as JSON) and `cache clear` (empties it; prints how many replies went). */
import { clearResponseCache, responseCacheSize, type Db } from "../../db";
import { CliInputError, logLine, writeOut } from "../io";

export async function cacheCommand(db: () => Db, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (rest.length > 0 || (action !== "info" && action !== "clear")) throw new CliInputError(`cache: expected "info" or "clear", got "${args.join(" ")}"`);
  if (action === "info") {
    const size = await responseCacheSize(db());
    await writeOut(`${JSON.stringify({ entries: size.entries, bytes: size.bytes })}\n`);
    return 0;
  }
  const removed = await clearResponseCache(db());
  logLine(`response cache cleared: ${removed} replies removed`);
  await writeOut(`${JSON.stringify({ removed })}\n`);
  return 0;
}
