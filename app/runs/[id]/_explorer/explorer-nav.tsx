"use client";

import Link from "@/app/_components/link";
import { useRouter, useSearchParams } from "next/navigation";
import { createContext, useContext, useEffect, useId, useTransition, type MouseEvent, type ReactNode } from "react";
import { formatCount } from "@/app/_lib/format";
import styles from "./explorer.module.css";

/**
 * Navigation inside the item explorer: every control changes the URL (so views can be shared and the back button
 * works), in one transition, so the table dims while the server answers instead of looking stuck.
 */
export const NavigateContext = createContext<(href: string) => void>(() => undefined);

export function ExplorerFrame({ children }: { children: ReactNode }) {
  const router = useRouter();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const navigate = (href: string) => startTransition(() => router.push(href));
  useEffect(() => {
    // Back from an item, the URL names its row (#item-…). Client navigation does not update :target, so mark it here.
    for (const row of document.querySelectorAll("[data-target]")) row.removeAttribute("data-target");
    const id = decodeFragment(window.location.hash);
    if (id.startsWith("item-")) document.getElementById(id)?.setAttribute("data-target", "");
  }, [searchParams]);
  return (
    <NavigateContext.Provider value={navigate}>
      <div className={pending ? `${styles.frame} ${styles.pending}` : styles.frame} aria-busy={pending}>
        {children}
      </div>
    </NavigateContext.Provider>
  );
}

/** A toggle button that shows another view (a filter, a failure group). */
export function NavButton({ href, pressed, label, count, title }: { href: string; pressed: boolean; label: string; count: number; title?: string }) {
  const navigate = useContext(NavigateContext);
  const countId = useId();
  return (
    // The name is the label alone ("Failing"): outside scripts find the controls by it. The count is its description.
    <button
      type="button" className={styles.chip} aria-pressed={pressed} aria-label={label} aria-describedby={countId} title={title}
      onClick={() => navigate(href)}
    >
      <span className={styles.chipLabel}>{label}</span>
      <span className={styles.chipCount} id={countId}>{formatCount(count)}<span className="visually-hidden"> items</span></span>
    </button>
  );
}

/** A link (so it can be opened in a new tab) whose plain click navigates inside the explorer's transition. */
export function NavLink({ href, className, children, ...rest }: {
  href: string; className?: string; children: ReactNode; tabIndex?: number; "aria-hidden"?: boolean;
}) {
  const navigate = useContext(NavigateContext);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <Link href={href} className={className} onClick={onClick} prefetch={false} {...rest}>
      {children}
    </Link>
  );
}

function decodeFragment(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}
