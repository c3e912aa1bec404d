/** The names of a loop's stages, rollouts and optimizer calls: stable across resumes, unique within an optimisation. */

const pad = (n: number, width: number) => String(n).padStart(width, "0");

export const stepKey = (globalStep: number) => `step:${pad(globalStep, 4)}`;
export const slowUpdateKey = (epoch: number) => `slow:${pad(epoch, 2)}`;
export const metaSkillKey = (epoch: number) => `meta:${pad(epoch, 2)}`;
export const BASELINE_KEY = "baseline";
export const FINAL_KEY = "final";

export const analystCallKey = (stage: string, batch: number, kind: "failure" | "success", minibatch: number) =>
  `${stage}/batch:${batch}/analyst/${kind}/${pad(minibatch, 3)}`;
export const mergeCallKey = (stage: string, group: string, level: number, batch: number) => `${stage}/merge/${group}/L${level}/${pad(batch, 3)}`;
export const rankingCallKey = (stage: string) => `${stage}/ranking`;
