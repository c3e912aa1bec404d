"use client";

import Link from "@/app/_components/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Previous / next stage, also on the keyboard: k goes back, j goes on (not while typing in a field). */
export function StepNav({ previous, next }: { previous: { key: string; href: string } | null; next: { key: string; href: string } | null }) {
  const router = useRouter();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      if (event.key === "j" && next) router.push(next.href);
      if (event.key === "k" && previous) router.push(previous.href);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, previous, next]);
  return (
    <nav aria-label="Stages" style={{ display: "flex", gap: 16, alignItems: "baseline" }}>
      {previous ? <Link href={previous.href} rel="prev">← {previous.key}</Link> : <span className="muted">← first stage</span>}
      {next ? <Link href={next.href} rel="next">{next.key} →</Link> : <span className="muted">last stage →</span>}
      <span className="hint">Keys: k previous, j next</span>
    </nav>
  );
}
