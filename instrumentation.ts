/** Runs once when the Next.js server boots: apply migrations before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDb } = await import("./lib/db/client");
  getDb();
}
