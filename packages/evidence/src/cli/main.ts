import { parseInvocation, type Invocation } from "./args.js";
import { hashCommand, type Outcome, prepareCommand, slugCommand, statusCommand } from "./commands.js";
import { describeCliFault, exitCodeFor, type CliFault } from "./fault.js";
import { bestEffort, emit, type CliIo } from "./io.js";
import { jsonLine } from "./output.js";
import { publishCommand } from "./publish-command.js";
import { HELP, VERSION } from "./usage.js";
import { versionLine } from "@decay/cli-kit";
import { okAsync, type ResultAsync } from "neverthrow";

export type { CliIo, CliWriter } from "./io.js";

function run(io: CliIo, inv: Invocation): ResultAsync<Outcome, CliFault> {
  switch (inv.command) {
    case "help":
      return okAsync({ exit: 0, text: HELP, json: { help: HELP } });
    case "version":
      return okAsync({ exit: 0, text: versionLine("decay-evidence", VERSION), json: { name: "decay-evidence", package_version: VERSION } });
    case "hash":
      return hashCommand(io, inv.file, inv.body, inv.global.maxInputBytes);
    case "slug":
      return slugCommand(io, inv.path);
    case "prepare":
      return prepareCommand(io, inv.file, inv.global);
    case "status":
      return statusCommand(io, inv.global);
    case "publish":
      return publishCommand(io, inv.path, inv.flags, inv.global);
  }
}

const wantsJson = (inv: Invocation): boolean => ("global" in inv ? inv.global.json : inv.json);

async function report(io: CliIo, json: boolean, f: CliFault): Promise<number> {
  const message = describeCliFault(f);
  await bestEffort(io.stderr, `decay-evidence: ${message}\n`);
  if (json) await emit(io.stdout, jsonLine({ fault: { code: f.code, message } }));
  return exitCodeFor(f);
}

/**
 * The `decay-evidence` CLI: exit 0 published/ok, 1 still pending (with the reason), 2 every
 * fault (message on stderr). Never throws for an expected failure; the bin seals the rest.
 */
export async function decayEvidenceMain(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseInvocation(argv);
  if (parsed.isErr()) return report(io, argv.includes("--json"), parsed.error);
  const inv = parsed.value;
  const json = wantsJson(inv);
  const outcome = await run(io, inv).andThen((o) => emit(io.stdout, json ? jsonLine(o.json) : o.text).map(() => o.exit));
  return outcome.isOk() ? outcome.value : report(io, json, outcome.error);
}
