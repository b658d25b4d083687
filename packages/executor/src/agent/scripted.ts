import type { WorkspaceFs } from "../ports.js";
import { joinPath } from "../run/paths.js";
import type { Agent, AgentRequest } from "./protocol.js";

/** What a scripted agent does on one call: edit files (null deletes), then reply, or reply nothing. */
export interface ScriptAction {
  /** Paths relative to the repository → new content, or null to delete the file. */
  readonly edit?: Readonly<Record<string, string | null>>;
  /** The reply, exactly as given; omitted: a valid default reply for the role. */
  readonly reply?: unknown;
  /** Return nothing at all (as an agent at its usage limit does). */
  readonly nothing?: boolean;
  /** Tokens the default reply reports; default 100. */
  readonly tokens?: number;
}

/** A script: the action for each call, from the call alone, so a rerun call does the same thing. */
export type AgentScript = (request: AgentRequest) => ScriptAction | undefined;

/** Options of `scriptedAgent`. */
export interface ScriptedAgentOptions {
  readonly fs: WorkspaceFs;
  /** The repository the edits apply to. */
  readonly dir: string;
  readonly script: AgentScript;
}

function defaultReply(request: AgentRequest, tokens: number): unknown {
  switch (request.role) {
    case "execute":
    case "fix":
      return { tokens, summary: `scripted ${request.role} of ${request.stage}` };
    case "diagnose":
      return { tokens, cause: `scripted ${request.lens}`, fix: "change the code under test", acceptance_effect: "none" };
    case "adjudicate":
      return { tokens, chosen: 0, reason: "the first admissible diagnosis" };
  }
}

async function applyEdits(opts: ScriptedAgentOptions, edit: Readonly<Record<string, string | null>>): Promise<void> {
  const { promises: fs } = opts.fs;
  for (const [path, content] of Object.entries(edit)) {
    const target = joinPath(opts.dir, path);
    if (content === null) {
      await fs.rm(target, { recursive: true, force: true });
      continue;
    }
    const parent = target.slice(0, target.lastIndexOf("/"));
    if (parent !== "") await fs.mkdir(parent, { recursive: true });
    await fs.writeFile(target, content);
  }
}

/**
 * A deterministic agent for tests and the demo: each call looks up its action in the script,
 * applies the edits to the repository through `fs`, and replies (or returns nothing).
 */
export function scriptedAgent(opts: ScriptedAgentOptions): Agent {
  const act = async (request: AgentRequest): Promise<unknown> => {
    const action = opts.script(request) ?? {};
    if (action.edit) await applyEdits(opts, action.edit);
    if (action.nothing) return undefined;
    return "reply" in action ? action.reply : defaultReply(request, action.tokens ?? 100);
  };
  return { execute: act, diagnose: act, adjudicate: act, fix: act };
}

/** The keys a call is looked up by, most specific first: `S2 fix a2 t1`, `S2 fix a2`, `S2 fix`, `fix`; a diagnosis also by its lens (`S1 diagnose what-changed`). */
export function scriptKeys(request: AgentRequest): string[] {
  const { stage, role, attempt } = request;
  const lens = request.role === "diagnose" ? ` ${request.lens}` : "";
  return [
    `${stage} ${role}${lens} a${attempt} t${request.try}`,
    `${stage} ${role}${lens} a${attempt}`,
    `${stage} ${role}${lens}`,
    `${stage} ${role} a${attempt}`,
    `${stage} ${role}`,
    role,
  ];
}

/** A script from a table keyed as `scriptKeys` lists; calls with no key get the default reply. */
export function scriptTable(table: Readonly<Record<string, ScriptAction>>): AgentScript {
  return (request) => {
    for (const key of scriptKeys(request)) {
      const action = table[key];
      if (action !== undefined) return action;
    }
    return undefined;
  };
}
