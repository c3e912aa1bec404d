"use client";

import { useQuery } from "@tanstack/react-query";
import type { ErrorBody } from "@/app/_lib/http";
import type { RunStatus } from "@/lib/runs/types";
import type { RunLivePayload } from "../../_lib/live-payload";
import { runKeys } from "../_lib/query-keys";

const POLL_MS = 1000;

export const isActiveStatus = (status: RunStatus | undefined) => status === "queued" || status === "running";

async function fetchRunLive(runId: number, signal: AbortSignal): Promise<RunLivePayload> {
  const response = await fetch(`/api/runs/${runId}/live`, { signal, cache: "no-store" });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as ErrorBody | null;
    throw new Error(body?.error ?? `the server answered ${response.status}`);
  }
  return (await response.json()) as RunLivePayload;
}

/**
 * The run's live data, polled every second while it is queued or running and not at all once it stopped
 * (an action that restarts it invalidates the query, and polling resumes with the new status).
 */
export function useRunLive(runId: number, initial: RunLivePayload) {
  return useQuery({
    queryKey: runKeys.live(runId),
    queryFn: ({ signal }) => fetchRunLive(runId, signal),
    initialData: initial,
    refetchInterval: (query) => (isActiveStatus(query.state.data?.run.status) ? POLL_MS : false),
  });
}
