/**
 * The Import SkillOpt output form's limits, shared by the form (checked before sending) and the server action
 * (checked again). The zip travels as a server action body, which next.config.ts caps at 10 MB; a larger output
 * directory is imported on the server with `optimize import DIR`. Pure: the client form imports it.
 */
export const MAX_SKILLOPT_ZIP_BYTES = 9 * 1024 * 1024;
export const MAX_IMPORT_NAME_LENGTH = 200;

/** What is wrong with the chosen file, naming it; undefined when it may be sent. */
export function zipFileProblem(name: string, size: number): string | undefined {
  if (!/\.zip$/i.test(name)) return `${name}: not a .zip file (zip the SkillOpt output directory first)`;
  if (size === 0) return `${name}: the file is empty`;
  if (size > MAX_SKILLOPT_ZIP_BYTES) {
    return `${name}: ${(size / 1024 / 1024).toFixed(1)} MB, over the ${MAX_SKILLOPT_ZIP_BYTES / 1024 / 1024} MB limit of an upload; leave the rollout folders out of the zip, or import the directory on the server with \`optimize import DIR\``;
  }
  return undefined;
}
