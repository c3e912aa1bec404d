"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { formatCount } from "@/app/_lib/format";
import styles from "./compare.module.css";

export interface GroupButton {
  label: string;
  count: number;
  href: string;
  pressed: boolean;
  tone: "good" | "bad" | "neutral";
}

/** The outcome groups as toggle buttons: each opens its list (the URL changes, so a list can be shared). */
export function GroupButtons({ groups }: { groups: GroupButton[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <div className={styles.groups} role="group" aria-label="Outcome groups" aria-busy={pending}>
      {groups.map((group) => (
        <button
          key={group.label} type="button" aria-pressed={group.pressed} aria-label={group.label} className={`${styles.group} ${styles[group.tone]}`}
          onClick={() => startTransition(() => router.push(group.href, { scroll: false }))}
        >
          <span>{group.label}</span>
          <span className={styles.groupCount} aria-hidden="true">{formatCount(group.count)}</span>
        </button>
      ))}
    </div>
  );
}
