import { useState } from "react";
import type { StartRunDefaults } from "../_lib/start-run-defaults";
import type { StartRunField } from "../_lib/start-run-form";
import { NumberField } from "@/app/_components/form-field";
import styles from "./new-run.module.css";

type Selection = StartRunDefaults["selection"];

/** All items, the first N, or a seeded random sample of N (the same seed picks the same items in every run). */
export function ItemsFieldset({ defaults, errors }: { defaults: StartRunDefaults; errors: Partial<Record<StartRunField, string>> }) {
  const [selection, setSelection] = useState<Selection>(defaults.selection);
  const choice = (value: Selection, label: string) => (
    <label className={styles.inline}>
      <input type="radio" name="selection" value={value} checked={selection === value} onChange={() => setSelection(value)} />
      {label}
    </label>
  );
  return (
    <fieldset className={styles.fieldset}>
      <legend>Items</legend>
      <div className={styles.choices}>
        {choice("all", "All items")}
        {choice("limit", "The first N items")}
        {choice("sample", "A random sample of N items")}
      </div>
      <div className={styles.threeColumns}>
        <NumberField name="limit" label="Limit (N)" defaultValue={defaults.limit} error={errors.limit} disabled={selection !== "limit"} />
        <NumberField name="sampleSize" label="Sample size (N)" defaultValue={defaults.sampleSize} error={errors.sampleSize} disabled={selection !== "sample"} />
        <NumberField name="sampleSeed" label="Seed" defaultValue={defaults.sampleSeed} error={errors.sampleSeed} disabled={selection !== "sample"} />
      </div>
    </fieldset>
  );
}
