"use client";

import { hashKey, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import type { RunStatus } from "@/lib/runs/types";
import { formatCount } from "@/app/_lib/format";
import type { RunLivePayload } from "../../../_lib/live-payload";
import { runKeys } from "../../_lib/query-keys";
import styles from "./explorer.module.css";

/**
 * Keeps the server-rendered table honest next to the live view it sits under, by reading the live data the page
 * already polls (no request of its own). When the run's status changes (it finished; a retry or resume restarted it)
 * the table is reloaded at once. While it runs, new results come in by themselves when the table is `following`
 * (empty, or the first page of all items: nothing the reader is studying would move); on any other view, where
 * rows would jump under the reader, they are offered with a button instead.
 */
export function LiveSync({ runId, shownStatus, shownDone, following }: { runId: number; shownStatus: RunStatus; shownDone: number; following: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [live, setLive] = useState<{ status: RunStatus; done: number } | null>(null);
  const [pending, startTransition] = useTransition();

  useEffect(() => {
    const key = hashKey(runKeys.live(runId));
    const read = () => {
      const data = queryClient.getQueryData<RunLivePayload>(runKeys.live(runId));
      if (data) setLive({ status: data.run.status, done: data.stats.done });
    };
    read();
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.query.queryHash === key) read();
    });
  }, [queryClient, runId]);

  const statusChanged = live !== null && live.status !== shownStatus;
  const newResults = live === null || statusChanged ? 0 : live.done - shownDone;
  // One reload at a time: the next poll after it lands asks again if more results came meanwhile.
  const reload = (statusChanged || (following && newResults > 0)) && !pending;
  useEffect(() => {
    if (reload) startTransition(() => router.refresh());
  }, [reload, router]);

  if (following || newResults <= 0) return null;
  return (
    <button type="button" className={styles.refresh} onClick={() => startTransition(() => router.refresh())} disabled={pending}>
      {pending ? "Loading…" : `${formatCount(newResults)} new result${newResults === 1 ? "" : "s"} · show`}
    </button>
  );
}
