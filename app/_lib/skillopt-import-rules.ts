/**
 * The Import SkillOpt output form's limits, shared by the form (checked before sending) and POST
 * /api/optimizations/import (checked again). The zip is streamed to a temporary file on the server, never held in
 * memory; a larger output directory is imported on the server with `optimize import DIR`. Pure: the client form imports it.
 */
export const MAX_SKILLOPT_ZIP_BYTES = 200 * 1024 * 1024;
export const MAX_IMPORT_NAME_LENGTH = 200;

/** What is wrong with the chosen file, naming it; undefined when it may be sent. */
export function zipFileProblem(name: string, size: number): string | undefined {
  if (!/\.zip$/i.test(name)) return `${name}: not a .zip file (zip the SkillOpt output directory first)`;
  if (size === 0) return `${name}: the file is empty`;
  if (size > MAX_SKILLOPT_ZIP_BYTES) return zipTooLarge(name, size);
  return undefined;
}

export function zipTooLarge(name: string, size?: number): string {
  const mb = MAX_SKILLOPT_ZIP_BYTES / 1024 / 1024;
  return `${name}: ${size === undefined ? "more than" : `${(size / 1024 / 1024).toFixed(1)} MB, over`} the ${mb} MB limit of an upload; leave the rollout folders out of the zip, or import the directory on the server with \`optimize import DIR\``;
}

/** What POST /api/optimizations/import answers: the imported optimisation, or the error body of every route. */
export type SkillOptImportResponse = { id: number; message: string } | { error: string };
