"use client";

import { useState, type DragEvent } from "react";
import styles from "./file-drop-zone.module.css";

interface FileDropZoneProps {
  /** id of the file input, so the visible label names it (browser scripts find it by that label). */
  inputId: string;
  label: string;
  /** The input's accept attribute, e.g. ".md,.txt". */
  accept: string;
  hint: string;
  /** Name of the file currently chosen, shown in the zone. */
  chosenFileName?: string;
  disabled?: boolean;
  onFile(file: File): void;
}

/**
 * A file picker that also accepts a file dropped anywhere on it. The input has no `name`: the forms
 * send what they read from the file themselves, never the file as a form field.
 */
export function FileDropZone({ inputId, label, accept, hint, chosenFileName, disabled, onFile }: FileDropZoneProps) {
  const [dragging, setDragging] = useState(false);

  function handleDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  }

  return (
    <div
      className={`${styles.zone} ${dragging ? styles.dragging : ""}`}
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={handleDrop}
    >
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      <input
        id={inputId}
        type="file"
        accept={accept}
        disabled={disabled}
        className={styles.input}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) onFile(file);
        }}
      />
      <p className={styles.hint}>{chosenFileName ? <>Chosen: <strong>{chosenFileName}</strong></> : hint}</p>
    </div>
  );
}
