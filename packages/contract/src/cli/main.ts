import { annotation, helpHint, readBounded, repoRelative, shown, versionLine, writeOutput } from "@decay/cli-kit";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { decodeUtf8 } from "../decode.js";
import { compileContract } from "../compile.js";
import { planDrift } from "../drift.js";
import { type ContractFault, describeFault } from "../fault.js";
import type { Contract, Finding } from "../model.js";
import { looksLikeContract, parseContract } from "../parse-contract.js";
import { contractJson, findingsJson } from "../json-output.js";
import { FORMAT_NAME, importPlan } from "../import/import-plan.js";
import { readPlan } from "../plan/read-plan.js";
import { renderContract } from "../render.js";
import { selfCheck } from "../self-check/check.js";
import { VERSION } from "../version.js";
import { type Command, HELP, parseArgs, type UsageFault } from "./args.js";
import { type CheckedFile, githubFindings, junitFindings, sarifFindings } from "./formats.js";
import type { CliIo } from "./io.js";
import { findingLocator } from "./locate.js";

/** Every fault the CLI can meet: the library's, a bad command line, a file it cannot read or write. */
export type CliFault =
  | ({ file: string } & ContractFault)
  | UsageFault
  | { code: "read-failed"; file: string; reason: string }
  | { code: "write-failed"; file: string; reason: string }
  | { code: "plan-path-lines"; file: string };

/** The one place a fault becomes an exit code; a new fault code does not compile without a case. */
export function exitCodeFor(fault: CliFault): number {
  switch (fault.code) {
    case "usage":
    case "read-failed":
    case "write-failed":
    case "plan-path-lines":
    case "no-recommendation":
    case "encoding":
    case "nul-character":
    case "structure-unread":
    case "duplicate-label":
    case "import-unrecognised":
    case "import-duplicate":
    case "import-unclosed":
    case "task-plan":
    case "recommendation-not-staged":
    case "acceptance-invalid":
    case "duplicate-exit":
    case "duplicate-depends":
    case "depends-unknown":
    case "depends-empty":
    case "optional-unclear":
    case "row-writer-failed":
    case "row-invalid":
    case "contract-malformed":
    case "contract-invalid":
    case "contract-integrity":
    case "contract-version":
    case "not-utf8":
    case "cr-line-endings":
    case "repeated-bom":
    case "contract-crlf":
      return 2;
    default: {
      const never: never = fault;
      return never;
    }
  }
}

/** A fault's one line: a file is named as typed, or quoted with its line breaks and controls escaped (`shown`). */
function describeCliFault(fault: CliFault): string {
  if (fault.code === "usage") return `${fault.message}${helpHint("decay-contract")}`;
  const file = shown(fault.file);
  if (fault.code === "read-failed") return `${file}: cannot read: ${fault.reason}`;
  if (fault.code === "write-failed") return `${file}: cannot write: ${fault.reason}`;
  if (fault.code === "plan-path-lines") {
    return `${file}: cannot compile: its name holds a line break, and a contract records its plan's path on one line (plan:); rename the file`;
  }
  return `${file}: ${describeFault(fault)}`;
}

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

const inFile =
  (file: string) =>
  (fault: ContractFault): CliFault => ({ ...fault, file: file === "-" ? "standard input" : file });

/** A file's exact bytes (hashed as they are) and their UTF-8 text. */
type FileText = { bytes: Uint8Array; text: string };

/** Reads an input through the shared bounded reader (`-` is standard input), then decodes it strictly. */
function read(io: CliIo, file: string, maxBytes: number | undefined): ResultAsync<FileText, CliFault> {
  const opts = { option: "--max-input-bytes", ...(maxBytes === undefined ? {} : { maxBytes }) };
  return readBounded(io, file, opts)
    .mapErr((r): CliFault => ({ code: "read-failed", file: r.name, reason: r.reason }))
    .andThen((bytes) => {
      const text = decodeUtf8(bytes);
      return text.isOk() ? okAsync({ bytes, text: text.value }) : errAsync(inFile(file)(text.error));
    });
}

/** Write to stdout; a failed write is a fault (exit 2), never a verdict. */
function emit(io: CliIo, text: string, code: number): ResultAsync<number, CliFault> {
  return ResultAsync.fromPromise(
    Promise.resolve().then(() => io.stdout(text)),
    (e): CliFault => ({ code: "write-failed", file: "<stdout>", reason: reason(e) }),
  ).map(() => code);
}

/** Compile a plan read from `file`; a name holding a line break is refused: the contract's `plan:` is one line. */
function compilePlan(file: string, plan: FileText): ResultAsync<Contract, CliFault> {
  if (/[\r\n]/.test(file)) return errAsync({ code: "plan-path-lines", file });
  return readPlan(plan.text)
    .asyncAndThen((p) => compileContract(p, { planPath: file, planText: plan.bytes }))
    .mapErr(inFile(file));
}

/** Write text to the file given with -o (atomically; `-` is stdout; never over `input`, the file read), or to stdout. */
function output(io: CliIo, file: string | undefined, text: string, input: string): ResultAsync<number, CliFault> {
  if (file === undefined) return emit(io, text, 0);
  const target = { cwd: io.cwd, stdout: { write: io.stdout } };
  return writeOutput(target, file, text, { inputs: [input] })
    .mapErr((r): CliFault => ({ code: "write-failed", file: r.kind === "stdout" ? "<stdout>" : file, reason: r.reason }))
    .map(() => 0);
}

/** Write a note to stderr; a failed note is no fault (the result is already written). */
const note = (io: CliIo, text: string) => ResultAsync.fromSafePromise(io.stderr(text).catch(() => {}));

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** The one-line summary of a compile: stages with their plan labels, rows, guardrails, falsifiers. */
function compileSummary(file: string, c: Contract): string {
  const stages = c.stages.map((s) => `${s.label}${s.optional ? " (optional)" : ""}: ${count(s.acceptance.length, "row")}`);
  const rows = c.stages.reduce((n, s) => n + s.acceptance.length, 0);
  return `decay-contract: ${shown(file)}: ${count(c.stages.length, "stage")} (${stages.join("; ")}), ${count(rows, "row")}, ${count(c.guardrails.length, "guardrail")}, ${count(c.falsifiers.length, "falsifier")}\n`;
}

function runCompile(io: CliIo, cmd: Extract<Command, { kind: "compile" }>): ResultAsync<number, CliFault> {
  return read(io, cmd.plan, cmd.maxInputBytes)
    .andThen((plan) => compilePlan(cmd.plan, plan))
    .andThen((contract) => {
      const text = cmd.json ? `${JSON.stringify(contractJson(contract), null, 2)}\n` : renderContract(contract);
      return output(io, cmd.output, text, cmd.plan).andThen((code) =>
        cmd.quiet ? okAsync(code) : note(io, compileSummary(cmd.plan, contract)).map(() => code),
      );
    });
}

function runImport(io: CliIo, cmd: Extract<Command, { kind: "import" }>): ResultAsync<number, CliFault> {
  return read(io, cmd.plan, cmd.maxInputBytes).andThen((plan) => {
    const imported = importPlan(plan.text).mapErr(inFile(cmd.plan));
    if (imported.isErr()) return errAsync(imported.error);
    const { format, stages, notConverted, text } = imported.value;
    const lines = notConverted.map((n) => `  line ${n.line}: ${n.text} (${n.reason})\n`).join("");
    const head = `decay-contract: ${shown(cmd.plan)}: imported ${FORMAT_NAME[format]} as ${count(stages, "stage")}; ${count(notConverted.length, "item")} not converted${lines ? ":" : ""}\n`;
    return output(io, cmd.output, text, cmd.plan).andThen((code) => note(io, head + lines).map(() => code));
  });
}

/** The contract under check (read, or compiled from a plan) and the plan text known for it. */
function loadForCheck(io: CliIo, cmd: Extract<Command, { kind: "check" }>) {
  const planFile = cmd.plan === undefined ? okAsync<FileText | undefined, CliFault>(undefined) : read(io, cmd.plan, cmd.maxInputBytes);
  return read(io, cmd.file, cmd.maxInputBytes).andThen((file) =>
    planFile.andThen((given) => {
      if (!looksLikeContract(file.text)) {
        return compilePlan(cmd.file, file).map((contract) => ({ contract, planText: (given ?? file).bytes, given, file, isContract: false }));
      }
      const parsed = parseContract(file.text).mapErr(inFile(cmd.file));
      if (parsed.isErr()) return errAsync(parsed.error);
      return okAsync({ contract: parsed.value, planText: given?.bytes, given, file, isContract: true });
    }),
  );
}

function findingLine(f: Finding): string {
  const where = [f.stage, f.row].filter((x) => x !== null).join(" ");
  return `${f.severity} ${f.code}${where ? ` ${where}` : ""}: ${f.message}\n`;
}

/** The findings as `--json`, `--format` or the default text asks. */
function renderFindings(cmd: Extract<Command, { kind: "check" }>, findings: Finding[], checked: () => CheckedFile): string {
  const refusals = findings.filter((f) => f.severity === "refuse").length;
  switch (cmd.format) {
    case "json":
      return `${JSON.stringify(findingsJson(findings), null, 2)}\n`;
    case "sarif":
      return sarifFindings(checked());
    case "junit":
      return junitFindings(checked());
    case "github":
    case "text": {
      const annotations = cmd.format === "github" ? githubFindings(checked()) : "";
      return `${annotations}${findings.map(findingLine).join("")}${refusals} refusal(s), ${findings.length - refusals} warning(s)\n`;
    }
  }
}

/** The checked file as the CI formats name it: from its repository's root; undefined for standard input. */
function repoPath(io: CliIo, file: string): string | undefined {
  return file === "-" ? undefined : repoRelative(io.cwd, file);
}

function runCheck(io: CliIo, cmd: Extract<Command, { kind: "check" }>): ResultAsync<number, CliFault> {
  return loadForCheck(io, cmd).andThen(({ contract, planText, given, file, isContract }) => {
    const options = { includeOptional: cmd.includeOptional, ...(planText === undefined ? {} : { planText }) };
    const findings = [...selfCheck(contract, options), ...(given === undefined ? [] : planDrift(contract, given.bytes))];
    const checked = (): CheckedFile => ({ file: repoPath(io, cmd.file), contract, findings, lineOf: findingLocator(file.text, contract, isContract) });
    const refusals = findings.filter((f) => f.severity === "refuse").length;
    return emit(io, renderFindings(cmd, findings, checked), refusals > 0 ? 1 : 0);
  });
}

function run(io: CliIo, cmd: Command): ResultAsync<number, CliFault> {
  switch (cmd.kind) {
    case "help":
      return emit(io, HELP[cmd.topic], 0);
    case "version":
      return emit(io, versionLine("decay-contract", VERSION), 0);
    case "compile":
      return runCompile(io, cmd);
    case "check":
      return runCheck(io, cmd);
    case "import":
      return runImport(io, cmd);
  }
}

/**
 * `decay-contract compile|check|import`: returns the exit code. Every fault exits 2 with its sentence on
 * stderr; an exception (a failed write to stdout included) is exit 2, never a verdict.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseArgs(argv);
    const result = await parsed.asyncAndThen((cmd) => run(io, cmd));
    if (result.isOk()) return result.value;
    const message = describeCliFault(result.error);
    const cmd = parsed.isOk() ? parsed.value : undefined;
    if (cmd?.kind === "check" && cmd.format === "github" && result.error.code !== "write-failed") {
      // Under --format github a fault is an annotation too, at its line when it has one.
      const named = "file" in result.error ? result.error.file : cmd.file;
      const file = named === "standard input" ? undefined : repoPath(io, named);
      const line = "line" in result.error ? result.error.line : undefined;
      await Promise.resolve(io.stdout(annotation({ file, line, title: `decay-contract ${result.error.code}` }, message))).catch(() => {});
    }
    await io.stderr(`decay-contract: ${message}\n`).catch(() => {});
    return exitCodeFor(result.error);
  } catch (e) {
    await io.stderr(`decay-contract: internal error: ${reason(e)}\n`).catch(() => {});
    return 2;
  }
}
