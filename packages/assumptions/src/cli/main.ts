import * as nodeFs from "node:fs";
import { join } from "node:path";
import { annotation, shown, versionLine } from "@decay/cli-kit";
import { okAsync, ResultAsync } from "neverthrow";
import { nodeSha1Hex, nodeSha256Hex } from "../node/hashes.js";
import { nodeInflate } from "../node/inflate.js";
import { nodeTree } from "../node/tree.js";
import { withRootListed } from "./root.js";
import type { TreeReader } from "../tree.js";
import { askedOutput, parseArgs, type Command, type OutputMode, type TreeFlags } from "./args.js";
import { EXIT, exitCodeFor, type GateFault } from "./exit.js";
import { CLI_FAULT_CODES, describeCliFault, type CliFault, type PlanFile } from "./faults.js";
import { authorAssumptions, checkParsed, describeFault, digestPath, parseAssumptions, type Report } from "./gate.js";
import { bestEffort, checkRoot, emit, readInput, writeAtomic, type CliIo } from "./io.js";
import { vetReport } from "./vet.js";
import { githubAnnotations, junitReport, repoPath, sarifReport } from "./formats.js";
import { renderHuman, rendered } from "./render.js";
import { USAGE, VERSION } from "./usage.js";

export type { CliIo, CliWriter } from "./io.js";

type CheckCommand = Extract<Command, { kind: "check" }>;
type DigestCommand = Extract<Command, { kind: "digest" }>;
type AuthorCommand = Extract<Command, { kind: "author" }>;

/**
 * How a fault is shown: the output mode, the assumptions file as given (for annotations), and
 * whether `--descend-submodules` was asked of a commit (`--ref`), where it cannot apply.
 */
interface FaultContext {
  readonly output: OutputMode;
  readonly file?: string;
  readonly descendInCommit?: boolean;
}

const HUMAN: FaultContext = { output: "human" };

/** The context of a command's faults: `output` and where its tree is read. */
function contextOf(cmd: TreeFlags, output: OutputMode, file?: string): FaultContext {
  const base = file === undefined ? { output } : { output, file };
  return cmd.ref !== undefined && cmd.descendSubmodules === true ? { ...base, descendInCommit: true } : base;
}

const GITLINK_NOTE =
  "; --descend-submodules does not apply to --ref: a commit holds a submodule only as a gitlink (another repository's commit id), with no files checked out to descend into";

const CLI_CODES: ReadonlySet<string> = new Set<string>(CLI_FAULT_CODES);

function isCliFault(fault: GateFault): fault is CliFault {
  return CLI_CODES.has(fault.code);
}

function messageOf(fault: GateFault, ctx: FaultContext): string {
  if (isCliFault(fault)) return describeCliFault(fault);
  return describeFault(fault) + (fault.code === "submodule" && ctx.descendInCommit === true ? GITLINK_NOTE : "");
}

function lineOf(fault: GateFault): number | undefined {
  return "line" in fault ? fault.line : undefined;
}

/** The JSON renderers (and zod with them), loaded only when `--json` asks for them. */
function jsonRenderers(): ResultAsync<typeof import("./json.js"), CliFault> {
  return ResultAsync.fromPromise(import("./json.js"), (e): CliFault => ({ code: "internal", reason: String(e) }));
}

/** Reports a fault: JSON or an annotation on stdout when asked for, always `error:` on stderr. */
async function fail(io: CliIo, fault: GateFault, ctx: FaultContext): Promise<number> {
  const message = messageOf(fault, ctx);
  const line = lineOf(fault);
  if (fault.code !== "stdout-write-failed") {
    if (ctx.output === "json") await jsonRenderers().andThen((m) => emit(io.stdout, m.renderJsonFault(fault.code, message, line)));
    if (ctx.output === "github") await emit(io.stdout, annotation({ file: ctx.file, line, title: `plan-decay ${fault.code}` }, message));
  }
  await bestEffort(io.stderr, `error: ${message}\n`);
  return exitCodeFor(fault);
}

/** Writes the whole of stdout's text once; a failed write turns any code into 2. */
async function deliver(io: CliIo, text: string, code: number, ctx: FaultContext): Promise<number> {
  const written = await emit(io.stdout, text);
  return written.isOk() ? code : fail(io, written.error, ctx);
}

// What node:crypto and node:zlib do faster than gitTree's portable hashing and inflating.
const NODE_GIT = { sha1Hex: nodeSha1Hex, sha256Hex: nodeSha256Hex, inflate: nodeInflate } as const;

/**
 * The commit `--ref` names, opened eagerly: the root is listed once here (the reader caches it), so
 * a bad ref or a root that is no repository is the run's fault, before the plan is read and with
 * no line number, instead of surfacing lazily on the first row.
 */
function gitTreeAt(abs: string, root: string, ref: string): ResultAsync<TreeReader, GateFault> {
  const adapter = ResultAsync.fromPromise(
    import("../adapters/git.js"),
    (e): GateFault => ({ code: "internal", reason: `the git adapter could not be loaded: ${String(e)}` }),
  );
  return adapter.andThen((m) => {
    const tree = m.gitTree({ fs: nodeFs, dir: abs, ref, describe: root, ...NODE_GIT });
    return tree
      .list("")
      .map((): TreeReader => tree)
      .mapErr((e): GateFault => (e.reason === "not-a-repository" ? notARepository(root) : e));
  });
}

/** `--root` names no repository for `--ref`: said with the rule, naming the root as given. */
function notARepository(root: string): GateFault {
  const message = `${shown(root)} is not a git repository: with --ref, --root must be a repository's top level (the directory holding .git) or a bare repository`;
  return { code: "tree-not-found", path: "", message };
}

/**
 * The working files at an absolute root, the root listed up front as `gitTreeAt` lists a commit's:
 * a root that cannot be listed (EACCES, a name that is not UTF-8) is the run's fault, before the
 * plan is read and with no line number, never the first row's. The check's first look at the root
 * is handed that listing, so the root is still listed once.
 */
function workingTreeAt(abs: string, root: string, flags: TreeFlags): ResultAsync<TreeReader, GateFault> {
  const tree = nodeTree(abs, flags.descendSubmodules === true ? { describe: root, descendSubmodules: true } : { describe: root });
  return tree.list("").map((entries) => withRootListed(tree, entries));
}

/** The tree at an absolute root: working files via node:fs, or a commit via git for `--ref`. */
function treeAt(abs: string, root: string, flags: TreeFlags): ResultAsync<TreeReader, GateFault> {
  return flags.ref !== undefined ? gitTreeAt(abs, root, flags.ref) : workingTreeAt(abs, root, flags);
}

/** The tree `--root` (and `--ref`) name, after confirming the root is a directory. */
function openTree(io: CliIo, cmd: TreeFlags & { readonly root: string }): ResultAsync<TreeReader, GateFault> {
  if (io.openTree !== undefined) return okAsync(io.openTree(cmd.root, cmd.ref));
  return checkRoot(io, cmd.root).andThen((abs) => treeAt(abs, cmd.root, cmd));
}

/** The report as the output mode asks. */
function renderCheck(report: Report, ctx: FaultContext): ResultAsync<string, CliFault> {
  if (ctx.output === "json") return jsonRenderers().andThen((m) => rendered(report, () => m.renderJsonReport(report)).andThen((json) => json));
  const output = ctx.output;
  return okAsync(report).andThen(() => rendered(report, () => renderText(report, ctx, output)));
}

/** The report in every output mode but JSON. */
function renderText(report: Report, ctx: FaultContext, output: Exclude<OutputMode, "json">): string {
  switch (output) {
    case "sarif":
      return sarifReport(report, ctx.file);
    case "junit":
      return junitReport(report, ctx.file);
    case "github":
      return githubAnnotations(report, ctx.file) + renderHuman(report);
    case "human":
      return renderHuman(report);
  }
}

async function runCheck(io: CliIo, cmd: CheckCommand): Promise<number> {
  const file = cmd.output === "human" || cmd.output === "json" ? undefined : repoPath(io.cwd, cmd.input);
  const ctx = contextOf(cmd, cmd.output, file);
  const outcome = await openTree(io, cmd).andThen((tree) =>
    readInput(io, cmd.input, cmd.maxInputBytes)
      .andThen((bytes) => parseAssumptions(bytes))
      .andThen((assumptions) => checkParsed({ tree, assumptions }))
      .andThen((report) => vetReport(report))
      .andThen((report) => renderCheck(report, ctx).map((text) => ({ report, text }))),
  );
  if (outcome.isErr()) return fail(io, outcome.error, ctx);
  const { report, text } = outcome.value;
  return deliver(io, text, report.verdict === "holds" ? EXIT.holds : EXIT.diverged, ctx);
}

async function runDigest(io: CliIo, cmd: DigestCommand): Promise<number> {
  const digest = await openTree(io, cmd).andThen((tree) => digestPath({ tree, path: cmd.path }));
  if (digest.isErr()) return fail(io, digest.error, contextOf(cmd, "human"));
  return deliver(io, `DIGEST ${cmd.path} ${digest.value}\n`, EXIT.digest, HUMAN);
}

/**
 * The files under `--root` that the plan `author` writes names, which `-o` may not replace or
 * make: each `--reads`, `--edits` and `--creates` path, whether read from the working files or,
 * with `--ref`, from a commit (the plan still describes the working copy), or through an
 * embedder's own `openTree`: a plan is never written over a path it names.
 */
function planFiles(cmd: AuthorCommand): readonly PlanFile[] {
  const from = cmd.ref === undefined ? {} : { ref: cmd.ref };
  const named = (option: PlanFile["option"], paths: readonly string[]) => paths.map((given) => ({ option, given, file: join(cmd.root, given), ...from }));
  return [...named("--reads", cmd.reads), ...named("--edits", cmd.edits), ...named("--creates", cmd.creates)];
}

async function runAuthor(io: CliIo, cmd: AuthorCommand): Promise<number> {
  const { reads, edits, creates, out } = cmd;
  const text = await openTree(io, cmd).andThen((tree) => authorAssumptions({ tree, reads, edits, creates }));
  if (text.isErr()) return fail(io, text.error, contextOf(cmd, "human"));
  if (out === undefined) return deliver(io, text.value, EXIT.holds, HUMAN);
  const written = await writeAtomic(io, out, text.value, planFiles(cmd));
  return written.isOk() ? EXIT.holds : fail(io, written.error, HUMAN);
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.isErr()) return fail(io, parsed.error, { output: askedOutput(argv) });
  const cmd = parsed.value;
  switch (cmd.kind) {
    case "help":
      return deliver(io, USAGE, EXIT.holds, HUMAN);
    case "version":
      return deliver(io, versionLine("plan-decay", VERSION), EXIT.holds, HUMAN);
    case "check":
      return runCheck(io, cmd);
    case "digest":
      return runDigest(io, cmd);
    case "author":
      return runAuthor(io, cmd);
  }
}

/**
 * The plan-decay CLI: reads argv (without node and script names), does the work through `io`,
 * and resolves to the exit code (0 holds, 1 diverged, 2 any fault, 3 digest printed). Never
 * rejects: an uncaught exception is reported on stderr and becomes 2.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (e) {
    return fail(io, { code: "internal", reason: e instanceof Error ? (e.stack ?? e.message) : String(e) }, { output: askedOutput(argv) });
  }
}
