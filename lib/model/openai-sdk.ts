import type * as OpenAISdk from "openai";

export type OpenAISdkModule = typeof OpenAISdk;

let loaded: OpenAISdkModule | undefined;
let loading: Promise<OpenAISdkModule> | undefined;

/**
 * The openai SDK, imported at the first model call rather than when the code loads: a CLI command that calls no model
 * (`skill list`, `export`) never pays for it (~14 MB and ~30 ms of start-up).
 */
export function loadOpenAISdk(): Promise<OpenAISdkModule> {
  loading ??= import("openai").then((sdk) => (loaded = sdk));
  return loading;
}

/** The SDK if a call has loaded it. An SDK error can only come from a call that did, so classifying one needs no wait. */
export function loadedOpenAISdk(): OpenAISdkModule | undefined {
  return loaded;
}
