import type * as OpenAISdk from "openai";

export type OpenAISdkModule = typeof OpenAISdk;

let loaded: OpenAISdkModule | undefined;
let loading: Promise<OpenAISdkModule> | undefined;

/**
 * The openai SDK, imported when a model call fails (its error classes describe the failure; the calls themselves go
 * through chat-completions-http.ts) rather than when the code loads: a command that never needs it does not pay for it
 * (~14 MB and ~30 ms of start-up).
 */
export function loadOpenAISdk(): Promise<OpenAISdkModule> {
  loading ??= import("openai").then((sdk) => (loaded = sdk));
  return loading;
}

/** The SDK if it is loaded. An SDK error can only come from code that loaded it, so classifying one needs no wait. */
export function loadedOpenAISdk(): OpenAISdkModule | undefined {
  return loaded;
}
