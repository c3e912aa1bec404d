"use client";

import { hashKey, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import type { RunStatus } from "@/lib/runs/types";
import { formatCount } from "@/app/_lib/format";
import type { RunLivePayload } from "../../../_lib/live-payload";
import { followReloadDelayMs } from "../../_lib/follow-delay";
import { runKeys } from "../../_lib/query-keys";
import styles from "./explorer.module.css";

/**
 * Keeps the server-rendered table honest next to the live view it sits under, by reading the live data the page
 * already polls (no request of its own). When the run's status changes (it finished; a retry or resume restarted it)
 * the table is reloaded at once. While it runs, new results come in by themselves when the table is `following`
 * (empty, or the first page of all items: nothing the reader is studying would move), at most as often as reloading
 * can afford (../../_lib/follow-delay.ts: every second when a reload is quick, further apart when the server is slow to
 * render the page); on any other view, where rows would jump under the reader, they are offered with a button instead.
 */
export function LiveSync({ runId, shownStatus, shownDone, following }: { runId: number; shownStatus: RunStatus; shownDone: number; following: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [live, setLive] = useState<{ status: RunStatus; done: number } | null>(null);
  const [pending, startTransition] = useTransition();
  // When the reload in progress began, and the earliest time (performance.now()) the next one may follow new results.
  const reloadStartedAt = useRef<number | null>(null);
  const nextFollowAt = useRef(0);
  const reload = useCallback(() => {
    reloadStartedAt.current = performance.now();
    startTransition(() => router.refresh());
  }, [router]);

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

  // A reload has landed: the next one for new results waits in proportion to what this one took. (Declared before the
  // effect below, which reads nextFollowAt in the same commit.)
  useEffect(() => {
    if (pending || reloadStartedAt.current === null) return;
    const now = performance.now();
    nextFollowAt.current = now + followReloadDelayMs(now - reloadStartedAt.current);
    reloadStartedAt.current = null;
  }, [pending]);

  const statusChanged = live !== null && live.status !== shownStatus;
  const newResults = live === null || statusChanged ? 0 : live.done - shownDone;
  const follow = following && newResults > 0;
  // One reload at a time: the next poll after it lands asks again if more results came meanwhile. A changed status
  // reloads at once; new results when the wait after the last reload is over.
  useEffect(() => {
    if (pending || !(statusChanged || follow)) return;
    const wait = statusChanged ? 0 : Math.max(0, nextFollowAt.current - performance.now());
    const timer = setTimeout(reload, wait);
    return () => clearTimeout(timer);
  }, [statusChanged, follow, pending, reload]);

  if (following || newResults <= 0) return null;
  return (
    <button type="button" className={styles.refresh} onClick={reload} disabled={pending}>
      {pending ? "Loading…" : `${formatCount(newResults)} new result${newResults === 1 ? "" : "s"} · show`}
    </button>
  );
}
