"use client";

import Link from "@/app/_components/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { formatIssue } from "@/lib/datasets/errors";
import { FileDropZone } from "../_components/file-drop-zone";
import { formatBytes, formatCount } from "@/app/_lib/format";
import { baseName } from "@/app/_lib/file-name";
import { DATASET_EXTENSIONS, datasetFileNameProblem, datasetSizeProblem, type UploadIssue } from "../_lib/dataset-upload-rules";
import styles from "./datasets.module.css";
import { sendDatasetFile } from "./send-dataset-file";

type Phase =
  | { kind: "idle" }
  | { kind: "uploading"; loaded: number; total: number }
  | { kind: "validating" }
  | { kind: "stored"; id: number; name: string; itemCount: number; duplicateOfId: number | null }
  | { kind: "failed"; message: string; file?: string; issues: UploadIssue[]; omitted: number };

/** Upload a JSON / JSONL / CSV dataset: progress while the bytes go up, then "validating…" while the server parses. */
export function DatasetUploadForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [file, setFile] = useState<File>();
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  // Remounting the drop zone is the only way to clear a file input.
  const [pickerKey, setPickerKey] = useState(0);
  const busy = phase.kind === "uploading" || phase.kind === "validating";

  function fail(message: string, issues: UploadIssue[] = [], file?: string, omitted = 0) {
    setPhase({ kind: "failed", message, issues, file, omitted });
  }

  function chooseFile(chosen: File) {
    setFile(chosen);
    setPhase({ kind: "idle" });
    if (!name.trim()) setName(baseName(chosen.name));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file) return fail("Choose a dataset file first.");
    if (!name.trim()) return fail("Give the dataset a name.");
    const problem = datasetFileNameProblem(file.name) ?? datasetSizeProblem(file.size);
    if (problem) return fail(problem);
    setPhase({ kind: "uploading", loaded: 0, total: file.size });
    try {
      const { status, body } = await sendDatasetFile(file, name.trim(), {
        onProgress: ({ loaded, total }) => setPhase({ kind: "uploading", loaded, total }),
        onSent: () => setPhase({ kind: "validating" }),
      });
      if (status === 201 && body && "id" in body) {
        setPhase({ kind: "stored", ...body });
        setFile(undefined);
        setName("");
        setPickerKey((key) => key + 1);
        router.refresh();
      } else if (body && "error" in body) {
        fail(status === 400 ? "Nothing was stored: the file has problems." : body.error, body.issues, body.file, body.omittedIssueCount);
      } else {
        fail(`The upload failed (HTTP ${status}); nothing was stored.`);
      }
    } catch (error) {
      fail((error as Error).message);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className={styles.uploadForm} aria-label="Upload a dataset">
      <div className="field">
        <label htmlFor="dataset-name">Dataset name</label>
        <input id="dataset-name" type="text" value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
      </div>
      <FileDropZone
        key={pickerKey}
        inputId="dataset-file"
        label="Dataset file"
        accept={DATASET_EXTENSIONS.join(",")}
        hint="Drop a .json, .jsonl or .csv file here (up to 200 MB)."
        chosenFileName={file ? `${file.name} (${formatBytes(file.size)})` : undefined}
        disabled={busy}
        onFile={chooseFile}
      />
      <p className="hint">
        Fields: <code>id</code>, <code>question</code>, <code>answers</code> (a list, or <code>answer</code>), optional{" "}
        <code>context</code>; other fields are kept as metadata.
      </p>
      <div className={styles.formActions}>
        <button type="submit" className="primary" disabled={busy}>
          Upload dataset
        </button>
      </div>
      <UploadStatus phase={phase} />
    </form>
  );
}

function UploadStatus({ phase }: { phase: Phase }) {
  switch (phase.kind) {
    case "idle":
      return null;
    case "uploading":
      return (
        <div role="status" className={styles.progress}>
          <progress max={phase.total || 1} value={phase.loaded} aria-label="Upload progress" />
          <span className="muted">
            Uploading… {formatBytes(phase.loaded)} of {formatBytes(phase.total)}
          </span>
        </div>
      );
    case "validating":
      return (
        <div role="status" className="muted">
          Validating… (checking every item before anything is stored)
        </div>
      );
    case "stored":
      return (
        <div role="status" className="notice-box">
          Stored <Link href={`/datasets/${phase.id}`}>{phase.name}</Link> with {formatCount(phase.itemCount)} items.
          {phase.duplicateOfId !== null && (
            <> It has the same items as <Link href={`/datasets/${phase.duplicateOfId}`}>dataset #{phase.duplicateOfId}</Link>.</>
          )}
        </div>
      );
    case "failed":
      return (
        <div role="alert" className={`error-box ${styles.errors}`}>
          <strong>{phase.message}</strong>
          {phase.issues.length > 0 && (
            <ul>
              {phase.issues.map((issue, index) => (
                <li key={index}>{formatIssue(phase.file ?? "", issue).replace(/^: /, "")}</li>
              ))}
              {phase.omitted > 0 && <li>… and {phase.omitted} more</li>}
            </ul>
          )}
        </div>
      );
  }
}
