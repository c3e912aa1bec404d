"use client";

import Link from "@/app/_components/link";
import { useActionState, useState } from "react";
import { FileDropZone } from "../_components/file-drop-zone";
import { baseName } from "@/app/_lib/file-name";
import { uploadSkillAction } from "./actions";
import { SKILL_EXTENSIONS, skillFileNameProblem, skillSizeProblem, type UploadSkillResult } from "./skill-upload-rules";
import styles from "./skills.module.css";

/**
 * Upload a skill version: a file (picked or dropped; read here with file.text()) or pasted text, under a
 * new or existing skill name. Fields are controlled so a failed submission keeps what the user entered.
 */
export function SkillUploadForm({ skillNames }: { skillNames: string[] }) {
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [content, setContent] = useState("");
  const [fileName, setFileName] = useState("");
  const [fileError, setFileError] = useState<string>();
  const [state, formAction, pending] = useActionState(async (previous: UploadSkillResult | null, formData: FormData) => {
    // Browsers rewrite every line break of a text form field as CRLF when they send it; a Blob goes as is,
    // and the stored text must be exactly the file's (its hash is how "the same text" is recognised).
    const text = formData.get("content");
    if (typeof text === "string") formData.set("content", new Blob([text], { type: "text/plain;charset=utf-8" }), fileName || "skill.md");
    const next = await uploadSkillAction(previous, formData);
    if (next.ok && next.data.outcome === "created") {
      setContent("");
      setNote("");
      setFileName("");
    }
    return next;
  }, null);

  async function chooseFile(file: File) {
    const problem = skillFileNameProblem(file.name) ?? skillSizeProblem(file.name, file.size);
    setFileError(problem);
    if (problem) return;
    setContent(await file.text());
    setFileName(file.name);
    if (!name.trim()) setName(baseName(file.name));
  }

  const fieldErrors = state && !state.ok ? (state.fields ?? {}) : {};
  return (
    <form action={formAction} className={styles.uploadForm} aria-label="Upload a skill version">
      <div className="field">
        <label htmlFor="skill-name">Skill name</label>
        <input
          id="skill-name"
          name="name"
          type="text"
          list="skill-names"
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={fieldErrors.name ? true : undefined}
        />
        <datalist id="skill-names">
          {skillNames.map((skillName) => (
            <option key={skillName} value={skillName} />
          ))}
        </datalist>
        <p className="hint">An existing name adds a version to that skill; a new name creates a skill.</p>
      </div>

      <FileDropZone
        inputId="skill-file"
        label="Skill file"
        accept={[...SKILL_EXTENSIONS, "text/markdown", "text/plain"].join(",")}
        hint="Drop a .md or .txt file here (at most 1 MB), or paste the text below."
        chosenFileName={fileName || undefined}
        disabled={pending}
        onFile={(file) => void chooseFile(file)}
      />
      {fileError && (
        <p className="error-box" role="alert">
          {fileError}
        </p>
      )}
      <input type="hidden" name="fileName" value={fileName} />
      {/* The text is submitted from state, not from the textarea, whose value turns CRLF into LF. */}
      <input type="hidden" name="content" value={content} />

      <div className="field">
        <label htmlFor="skill-content">Skill text</label>
        <textarea
          id="skill-content"
          rows={10}
          value={content}
          onChange={(event) => {
            setContent(event.target.value);
            setFileError(undefined);
          }}
          placeholder="# Question Answering Skill&#10;…"
          aria-invalid={fieldErrors.content ? true : undefined}
        />
      </div>

      <div className="field">
        <label htmlFor="skill-note">Note (optional)</label>
        <input id="skill-note" name="note" type="text" value={note} onChange={(event) => setNote(event.target.value)} placeholder="What changed in this version" />
      </div>

      <div className={styles.formActions}>
        <button type="submit" className="primary" disabled={pending}>
          Upload skill
        </button>
        {pending && <span className="muted">Uploading…</span>}
      </div>

      <UploadResult state={state} />
    </form>
  );
}

function UploadResult({ state }: { state: UploadSkillResult | null }) {
  if (state === null) return null;
  if (!state.ok) {
    return (
      <div className="error-box" role="alert">
        {state.error}
      </div>
    );
  }
  return (
    <div className="notice-box" role="status">
      {state.message}{" "}
      <Link href={`/skills/${state.data.skillId}?version=${state.data.version}`}>View version {state.data.version}</Link>
    </div>
  );
}
