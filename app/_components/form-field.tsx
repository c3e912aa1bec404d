import type { ReactNode } from "react";
import styles from "./form-field.module.css";

/** A labelled field (the forms of New run and New optimisation) with its hint and its server-side error right below it. */
export function FormField({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? <p className={`hint ${styles.hint}`} id={`${id}-hint`}>{hint}</p> : null}
      {error ? <p className={styles.fieldError} id={`${id}-error`}>{error}</p> : null}
    </div>
  );
}

/** aria-invalid and aria-describedby for an input whose field may show an error. */
export function describedBy(id: string, error: string | undefined, hasHint = false) {
  const ids = [hasHint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined };
}

/** A number box (text, so the server reports "abc" itself instead of the browser swallowing it). */
export function NumberField({ name, label, defaultValue, error, hint, disabled, idPrefix = "run" }: {
  name: string; label: string; defaultValue: string; error?: string; hint?: ReactNode; disabled?: boolean;
  /** The form's prefix for input ids ("run-concurrency"). */
  idPrefix?: string;
}) {
  const id = `${idPrefix}-${name}`;
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <input id={id} name={name} type="text" inputMode="decimal" defaultValue={defaultValue} disabled={disabled} {...describedBy(id, error, Boolean(hint))} />
    </FormField>
  );
}
