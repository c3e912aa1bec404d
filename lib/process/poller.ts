/** Calls `poll` now and then every `pollMs` after the previous call ended, until stopped; `wake` polls at once. */
export interface Poller {
  schedule(delayMs: number): void;
  stop(): void;
}

export function startPoller(poll: () => Promise<void>, pollMs: number): Poller {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const poller: Poller = {
    schedule(delayMs) {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(() => void poll().finally(() => poller.schedule(pollMs)), delayMs);
      // A poll never keeps the process alive by itself.
      timer.unref();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
  poller.schedule(0);
  return poller;
}
