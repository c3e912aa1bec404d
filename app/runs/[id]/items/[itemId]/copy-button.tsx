"use client";

import { useEffect, useState } from "react";
import styles from "./item.module.css";

/** Copies a prompt or a response as plain text; says whether it worked. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      // No clipboard API (a page served over plain HTTP off loopback): the older way still works there.
      setState(copyWithSelection(text) ? "copied" : "failed");
    }
  };
  return (
    <span className={styles.copy}>
      <span role="status" className={styles.copyStatus}>{state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : ""}</span>
      <button type="button" onClick={() => void copy()}>{label}</button>
    </span>
  );
}

function copyWithSelection(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } finally {
    area.remove();
  }
}
