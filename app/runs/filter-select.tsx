"use client";

import type { ReactNode } from "react";

/** A filter select that applies itself on change (the form's Filter button does the same without JavaScript). */
export function FilterSelect({ id, name, defaultValue, children }: { id: string; name: string; defaultValue: string; children: ReactNode }) {
  return (
    <select id={id} name={name} defaultValue={defaultValue} onChange={(event) => event.currentTarget.form?.requestSubmit()}>
      {children}
    </select>
  );
}
