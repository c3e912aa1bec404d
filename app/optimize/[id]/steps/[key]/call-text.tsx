"use client";

import { useState } from "react";
import { ShownText } from "@/app/_components/shown-text";
import type { ErrorBody } from "@/app/_lib/http";

interface CallText {
  key: string;
  system: string;
  user: string;
  reply: string | null;
  parsedJson: string | null;
}

/** An optimizer call's prompt and reply, fetched the first time it is opened (a step may hold dozens of long prompts). */
export function CallText({ optimizationId, callId }: { optimizationId: number; callId: number }) {
  const [text, setText] = useState<CallText | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    if (text) return;
    try {
      const response = await fetch(`/api/optimizations/${optimizationId}/calls/${callId}`, { cache: "no-store" });
      if (!response.ok) throw new Error(((await response.json().catch(() => null)) as ErrorBody | null)?.error ?? `the server answered ${response.status}`);
      setText((await response.json()) as CallText);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };
  return (
    <details onToggle={(event) => (event.currentTarget.open ? void load() : undefined)}>
      <summary>Prompt and reply</summary>
      {error ? <p className="error-box">{error}</p> : null}
      {text ? (
        <>
          <h4>System prompt</h4>
          <pre><ShownText text={text.system} max={undefined} /></pre>
          <h4>User message</h4>
          <pre><ShownText text={text.user} max={undefined} /></pre>
          <h4>Reply</h4>
          <pre data-testid="call-reply">{text.reply === null ? "(no reply: every attempt failed)" : <ShownText text={text.reply} max={undefined} />}</pre>
          <h4>JSON read from the reply</h4>
          {text.parsedJson === null ? <p className="hint">None: the reply held no JSON upstream&apos;s reader accepts, so the loop used upstream&apos;s fallback.</p> : <pre><ShownText text={text.parsedJson} max={undefined} /></pre>}
        </>
      ) : error ? null : <p className="muted">Loading…</p>}
    </details>
  );
}
