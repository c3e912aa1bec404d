import { useState } from "react";
import type { BackendKind, BackendOption } from "../_lib/backends";
import type { StartRunDefaults } from "../_lib/start-run-defaults";
import type { StartRunField } from "../_lib/start-run-form";
import { describedBy, FormField } from "./form-field";
import styles from "./new-run.module.css";

/**
 * Which backend answers: the server's configured OpenAI-compatible model, Azure OpenAI, or the offline
 * baseline. Unconfigured ones are disabled and name the variables that configure them; keys are never shown.
 */
export function BackendFieldset({ backends, defaults, errors }: {
  backends: BackendOption[]; defaults: StartRunDefaults; errors: Partial<Record<StartRunField, string>>;
}) {
  const [backend, setBackend] = useState<BackendKind>(defaults.backend);
  const [model, setModel] = useState(defaults.model);
  const chosen = backends.find((option) => option.backend === backend);
  const choose = (option: BackendOption) => {
    setBackend(option.backend);
    setModel(option.backend === defaults.backend ? defaults.model : option.defaultModel);
  };

  return (
    <section className="card">
      <h2>Model</h2>
      <fieldset className={styles.fieldset} aria-describedby={errors.backend ? "run-backend-error" : undefined}>
        <legend>Backend</legend>
        {backends.map((option) => (
          <div key={option.backend} className={`${styles.backend} ${option.configured ? "" : styles.backendOff}`}>
            <label className={styles.inline}>
              <input type="radio" name="backend" value={option.backend} checked={backend === option.backend} disabled={!option.configured} onChange={() => choose(option)} />
              {option.label}
              <span className={`badge ${option.configured ? "completed" : ""}`}>{option.configured ? "configured" : "not configured"}</span>
            </label>
            <p className="hint">{option.configured ? option.detail : option.hint}</p>
          </div>
        ))}
        {errors.backend ? <p className={styles.fieldError} id="run-backend-error">{errors.backend}</p> : null}
      </fieldset>
      {backend === "baseline" ? (
        <p className="hint">The offline baseline needs no model: it reads the context and picks a span.</p>
      ) : (
        <FormField
          id="run-model"
          label={backend === "azure" ? "Deployment" : "Model"}
          error={errors.model}
          hint={chosen?.defaultModel ? `Server default: ${chosen.defaultModel}` : undefined}
        >
          <input id="run-model" name="model" type="text" value={model} onChange={(event) => setModel(event.target.value)} {...describedBy("run-model", errors.model, Boolean(chosen?.defaultModel))} />
        </FormField>
      )}
    </section>
  );
}
