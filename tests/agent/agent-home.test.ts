// The per-item config folder an agent gets instead of the server user's: Codex's config.toml declares the run's
// provider by the name of its key variable (never the key), Claude Code's variables point it at the gateway.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { missingProviderKey, parseAgentConfig, prepareAgentHome, removeAgentHome } from "@/lib/agent";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skillboard-home-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const agent = (entry: Record<string, unknown>) => parseAgentConfig({ agents: { a: entry } }, "f.json", dir)[0]!;
const KEY = "sk-very-secret";

describe("prepareAgentHome", () => {
  it("gives Codex a CODEX_HOME whose config.toml names the provider and its key variable, and the key only in the environment", async () => {
    const home = join(dir, "home");
    const env = await prepareAgentHome(agent({ preset: "codex", maxRetries: 1, provider: { baseUrl: "http://127.0.0.1:8000/v1/", apiKeyEnv: "VLLM_KEY" } }), home, { VLLM_KEY: KEY });
    expect(env).toEqual({ CODEX_HOME: home, VLLM_KEY: KEY });
    const toml = readFileSync(join(home, "config.toml"), "utf8");
    expect(toml).toContain('model_provider = "skillboard"\n\n[model_providers.skillboard]\nname = "skillboard"\nbase_url = "http://127.0.0.1:8000/v1"\nwire_api = "responses"\nenv_key = "VLLM_KEY"\nrequest_max_retries = 1\nstream_max_retries = 1\n');
    expect(toml).not.toContain(KEY);
    await removeAgentHome(home);
    expect(existsSync(home)).toBe(false);
  });

  it("points Claude Code at the gateway without /v1, isolates its config and temp files, and sets IS_SANDBOX only when asked", async () => {
    const home = join(dir, "home");
    const claude = agent({ preset: "claude-code", provider: { baseUrl: "https://gw.example/v1", authTokenEnv: "GW_TOKEN" } });
    const env = await prepareAgentHome(claude, home, { GW_TOKEN: KEY, ANTHROPIC_API_KEY: "not-this-one" });
    expect(env).toEqual({
      CLAUDE_CONFIG_DIR: join(home, "config"), TMPDIR: join(home, "tmp"), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_MAX_RETRIES: "2", ANTHROPIC_BASE_URL: "https://gw.example", ANTHROPIC_AUTH_TOKEN: KEY,
    });
    expect(readdirSync(join(home, "config"))).toEqual([]);
    const sandboxed = await prepareAgentHome(agent({ preset: "claude-code", isSandbox: true }), home, {});
    expect(sandboxed.IS_SANDBOX).toBe("1");
    expect(await prepareAgentHome(agent({ command: ["x"] }), home, {})).toEqual({});
  });

  it("says when the provider's key variable is not set on the server", () => {
    const codex = agent({ preset: "codex", provider: { baseUrl: "http://h/v1", apiKeyEnv: "VLLM_KEY" } });
    expect(missingProviderKey(codex, {})).toBe('agent "a": provider.apiKeyEnv names VLLM_KEY, which is not set in the server\'s environment');
    expect(missingProviderKey(codex, { VLLM_KEY: "k" })).toBeUndefined();
    expect(missingProviderKey(agent({ preset: "codex" }), {})).toBeUndefined();
  });
});
