/** React Query keys of the runs feature, from one factory so invalidation always matches what is cached. */
export const runKeys = {
  all: ["runs"] as const,
  lives: () => [...runKeys.all, "live"] as const,
  live: (runId: number) => [...runKeys.lives(), runId] as const,
};
