"use client";

import Link from "@/app/_components/link";
import { useRouter } from "next/navigation";
import { useEffect, useLayoutEffect } from "react";
import styles from "./item-nav.module.css";

/** True when a key press is meant for a field (or carries a modifier), so the page's shortcuts stay out of its way. */
function isForAField(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return true;
  const target = event.target instanceof HTMLElement ? event.target : null;
  return target !== null && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

/**
 * Previous / next item within the explorer's current view, and back to the table: buttons, and the keys j (next),
 * k (previous) and Escape (back). The neighbours are resolved on the server by the explorer's own query layer.
 */
export function ItemNav({ prevHref, nextHref, backHref, place }: { prevHref: string | null; nextHref: string | null; backHref: string; place: string }) {
  const router = useRouter();
  // A layout effect: the URL of the next item changes in the same commit, so a key pressed right after it (key repeat)
  // always meets this page's links, never the previous page's.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isForAField(event)) return;
      const href = event.key === "j" ? nextHref : event.key === "k" ? prevHref : event.key === "Escape" ? backHref : null;
      if (!href) return;
      event.preventDefault();
      router.push(href);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, prevHref, nextHref, backHref]);
  useEffect(() => {
    // Stepping with j / k should feel instant: fetch the neighbours ahead.
    if (nextHref) router.prefetch(nextHref);
    if (prevHref) router.prefetch(prevHref);
  }, [router, prevHref, nextHref]);

  return (
    <nav className={styles.nav} aria-label="Item navigation">
      <button type="button" disabled={!prevHref} onClick={() => prevHref && router.push(prevHref)}>
        <span aria-hidden="true">←</span> Previous item
      </button>
      <button type="button" disabled={!nextHref} onClick={() => nextHref && router.push(nextHref)}>
        Next item <span aria-hidden="true">→</span>
      </button>
      <span className={styles.place}>{place}</span>
      <Link href={backHref} className={styles.back}>Back to the table</Link>
      <span className={styles.keys} aria-hidden="true">
        <kbd>j</kbd> next · <kbd>k</kbd> previous · <kbd>Esc</kbd> table
      </span>
    </nav>
  );
}
