export { MAX_CONTEXT_CHARS, truncateContext } from "./truncate-context";
export { loadPromptTemplate } from "./load-template";
export { formatTemplate } from "./format-template";
export { buildSystemPrompt } from "./system-prompt";
export { type UserPromptInput, buildUserPrompt, buildRefinementPrompt, isPlainUserPrompt } from "./user-prompt";
export { splitPassages, type Passage } from "./passages";
