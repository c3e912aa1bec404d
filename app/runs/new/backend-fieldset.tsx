import { useState } from "react";
import type { AgentSummary } from "@/lib/agent/config";
import type { BackendKind, BackendOption } from "@/app/_lib/backends";
import type { StartRunDefaults } from "../_lib/start-run-defaults";
import type { StartRunField } from "../_lib/start-run-form";
import { describedBy, FormField } from "@/app/_components/form-field";
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
  const [agentName, setAgentName] = useState(defaults.agent);
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
      {backend === "agent" ? (
        <AgentFields agents={chosen?.agents ?? []} agentName={agentName} setAgentName={setAgentName} model={model} setModel={setModel} defaults={defaults} errors={errors} />
      ) : backend === "baseline" ? (
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

/**
 * The agent backend: which of the server's agents (by name only: commands and their environment are set in
 * the server's config file), the model it is given, and whether correct items keep their workspaces.
 */
function AgentFields({ agents, agentName, setAgentName, model, setModel, defaults, errors }: {
  agents: AgentSummary[]; agentName: string; setAgentName: (name: string) => void; model: string; setModel: (model: string) => void;
  defaults: StartRunDefaults; errors: Partial<Record<StartRunField, string>>;
}) {
  const agent = agents.find((candidate) => candidate.name === agentName);
  const hint = [agent?.description, programNote(agent)].filter(Boolean).join(" · ");
  return (
    <>
      <div className={styles.twoColumns}>
        <FormField id="run-agent" label="Agent" error={errors.agent} hint={hint || undefined}>
          <select id="run-agent" name="agent" value={agentName} onChange={(event) => setAgentName(event.target.value)} {...describedBy("run-agent", errors.agent, Boolean(hint))}>
            {agents.map((candidate) => <option key={candidate.name} value={candidate.name}>{candidate.name}</option>)}
          </select>
        </FormField>
        <FormField id="run-model" label="Model (optional)" error={errors.model} hint={agent?.defaultModel ? `Blank: ${agent.defaultModel}` : "Blank: the agent's own default"}>
          <input id="run-model" name="model" type="text" value={model} onChange={(event) => setModel(event.target.value)} {...describedBy("run-model", errors.model, true)} />
        </FormField>
      </div>
      <div className="field">
        <label className={styles.inline}>
          <input type="checkbox" name="keepWorkspaces" defaultChecked={defaults.keepWorkspaces} />
          Keep the workspaces of correct items too
        </label>
        <p className="hint">Each item runs in a fresh workspace holding the skill as SKILL.md and the question as task.md; those of items that were not correct are always kept for inspection.</p>
      </div>
    </>
  );
}

/** Whether the server found the agent's program, and its version: a missing one is refused when the run starts. */
function programNote(agent: AgentSummary | undefined): string {
  if (!agent?.program) return "";
  if (!agent.program.installed) return "not installed on this server: a run would be refused";
  return agent.program.version ? `installed: ${agent.program.version}` : "installed (version unknown)";
}
