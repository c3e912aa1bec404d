"use client";

import { useQuery } from "@tanstack/react-query";
import type { ErrorBody } from "@/app/_lib/http";
import type { OptimizationLivePayload } from "@/app/_lib/optimization-payload";

export const optimizationKeys = {
  live: (id: number) => ["optimizations", "live", id] as const,
};

const POLL_MS = 1000;
// A candidate waiting for a person can also be decided from the CLI: look now and then.
const WAITING_POLL_MS = 4000;

async function fetchLive(id: number, signal: AbortSignal): Promise<OptimizationLivePayload> {
  const response = await fetch(`/api/optimizations/${id}/live`, { signal, cache: "no-store" });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as ErrorBody | null;
    throw new Error(body?.error ?? `the server answered ${response.status}`);
  }
  return (await response.json()) as OptimizationLivePayload;
}

/** The optimisation's live data, polled while it is queued, running or waiting; not at all once it stopped. */
export function useOptimizationLive(id: number, initial: OptimizationLivePayload) {
  return useQuery({
    queryKey: optimizationKeys.live(id),
    queryFn: ({ signal }) => fetchLive(id, signal),
    initialData: initial,
    refetchInterval: (query) => {
      const status = query.state.data?.optimization.status;
      return status === "queued" || status === "running" ? POLL_MS : status === "waiting_for_approval" ? WAITING_POLL_MS : false;
    },
  });
}
