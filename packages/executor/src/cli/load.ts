// What a command reads before anything runs: the repository, the contract (compiled from a plan,
// or parsed and checked for drift) and the agent's program. Each failure names its input.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { basename, delimiter, dirname, join, relative, resolve } from "node:path";
import { parseAssumptions } from "@decay/assumptions";
import { readBounded, reasonOf } from "@decay/cli-kit";
import { compileContract, type Contract, decodeUtf8, looksLikeContract, parseContract, planDrift, planSha256, readPlan } from "@decay/contract";
import { directoryErrnoSentence, isWithin } from "@decay/portable";
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from "neverthrow";
import { treePlace } from "../node/git.js";
import { gitInvoker } from "../node/git-process.js";
import { refusals } from "../run/validate.js";
import type { CliFault } from "./fault.js";

/**
 * The repository as an absolute path: an existing, readable and writable directory. Why it is not
 * is said in words from the shared errno table, as for a path that must be a directory
 * (`no such directory`, `a part of the path is not a directory`).
 */
export function repoDir(cwd: string, given: string | undefined): Result<string, CliFault> {
  const repo = resolve(cwd, given ?? ".");
  const refused = (reason: string): Result<string, CliFault> => err({ code: "repo-unreadable", repo: given ?? ".", reason });
  try {
    if (!statSync(repo).isDirectory()) return refused("is not a directory");
  } catch (e) {
    return refused(directoryErrnoSentence(reasonOf(e)));
  }
  try {
    accessSync(repo, constants.R_OK | constants.W_OK | constants.X_OK);
    return ok(repo);
  } catch (e) {
    return refused(`cannot be read and written (${directoryErrnoSentence(reasonOf(e))})`);
  }
}

/**
 * The repository (from `repoDir`) when it is the top of its git working tree; anything else is
 * refused: a clean room is a checkout of the whole repository and runs acceptance at its top, so
 * a subdirectory would run every row in the wrong place and call that red.
 */
export function atTop(repo: string, given: string | undefined, env: Readonly<Record<string, string | undefined>>): ResultAsync<string, CliFault> {
  const name = given ?? ".";
  return treePlace(gitInvoker(repo, env), repo)
    .mapErr((fault): CliFault => ({ code: "exec", input: "--repo", fault }))
    .andThen((p): Result<string, CliFault> => {
      if (p.at === "top") return ok(repo);
      if (p.at === "outside") return err({ code: "repo-not-top", repo: name, top: null, reason: p.reason });
      if (p.at === "below") return err({ code: "repo-not-top", repo: name, top: p.top, reason: "" });
      return err({ code: "repo-unreadable", repo: name, reason: `the top of its working tree, ${p.top}, cannot be resolved (${p.reason})` });
    });
}

/** What a command runs: the contract, the plan's bytes when known, the file it came from. */
export interface Loaded {
  readonly contract: Contract;
  readonly planText: Uint8Array | undefined;
  readonly file: string;
}

/**
 * Reads an input through the shared bounded reader: a FIFO, device or socket is refused before it
 * is opened (a FIFO nobody writes would block the run forever), a file over 64 MiB by its size.
 */
function read(cwd: string, file: string, maxBytes: number | undefined): ResultAsync<Uint8Array, CliFault> {
  return readBounded({ cwd }, asFile(file), bounded(maxBytes)).mapErr((r): CliFault => ({ code: "read-failed", file, reason: r.reason }));
}

/**
 * A file named as typed (the reader resolves it, keeping a trailing `/` that names a directory),
 * except `-`: a file of that name here (`./-`), never standard input.
 */
const asFile = (file: string): string => (file === "-" ? "./-" : file);

/** The bounded reader's options: the limit when `--max-input-bytes` gave one, and the flag to name. */
const bounded = (maxBytes: number | undefined) => (maxBytes === undefined ? { option: "--max-input-bytes" } : { option: "--max-input-bytes", maxBytes });

/** `path` with its directory's symbolic links resolved; as given when that fails. */
function real(path: string, directory = false): string {
  try {
    return directory ? realpathSync(path) : join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}

/**
 * A path as the run names it: relative to the repository (with `/`) when it lies inside it, else
 * absolute. Both are compared through their real directories, so a file reached through a
 * repository named by a symbolic link is inside it.
 */
function fromRepo(repo: string, abs: string): string {
  const top = real(repo, true);
  const at = real(abs);
  return isWithin(at, top) ? relative(top, at).split("\\").join("/") : abs;
}

/** Whether `path` (relative to `cwd`, or absolute; it need not exist) lies inside the repository, compared through real directories. */
export function insideRepo(cwd: string, repo: string, path: string): boolean {
  return isWithin(real(resolve(cwd, path)), real(repo, true));
}

/** A plan compiled; its path in the contract is relative to the repository when it lies inside it. */
function compiled(file: string, abs: string, repo: string, text: string, bytes: Uint8Array): ResultAsync<Loaded, CliFault> {
  const planPath = fromRepo(repo, abs);
  const plan = readPlan(text);
  if (plan.isErr()) return errAsync({ code: "contract-fault", file, fault: plan.error });
  return compileContract(plan.value, { planPath, planText: bytes })
    .mapErr((fault): CliFault => ({ code: "contract-fault", file, fault }))
    .map((contract) => ({ contract, planText: bytes, file }));
}

/**
 * A file's bytes (relative to `dir`, or absolute) when it can be read, `undefined` when it cannot
 * (missing, say); one that is there but is no regular file (a FIFO would block), or is over
 * 64 MiB, is a fault naming it as `named` says.
 */
function readIfThere(dir: string, file: string, named: string, maxBytes?: number): ResultAsync<Uint8Array | undefined, CliFault> {
  return readBounded({ cwd: dir }, asFile(file), bounded(maxBytes)).orElse((r) =>
    r.kind === "unreadable" ? okAsync(undefined) : errAsync<undefined, CliFault>({ code: "read-failed", file: named, reason: r.reason }),
  );
}

/**
 * The `--assumptions` file (relative to the working directory, or absolute), read through the
 * bounded reader and parsed before anything runs, so a missing or malformed one changes nothing.
 * Resolves to the path the run reads it at (`RunOptions.assumptions`): relative to the repository
 * when it lies inside it, else absolute.
 */
export function assumptionsPath(cwd: string, repo: string, file: string, maxBytes?: number): ResultAsync<string, CliFault> {
  const abs = resolve(cwd, file);
  // The name as typed reaches the reader: `a.tsv/` names a directory, not the file `a.tsv`.
  return readBounded({ cwd }, asFile(file), bounded(maxBytes))
    .mapErr((r): CliFault => ({ code: "assumptions-unreadable", file, reason: r.reason }))
    .andThen((bytes) =>
      parseAssumptions(bytes)
        .map(() => fromRepo(repo, abs))
        .mapErr((fault): CliFault => ({ code: "assumptions-invalid", file, fault })),
    );
}

/** A contract file: parsed, and checked against its plan when the plan is in the repository. */
function parsed(file: string, repo: string, text: string, maxBytes: number | undefined): ResultAsync<Loaded, CliFault> {
  const contract = parseContract(text);
  if (contract.isErr()) return errAsync({ code: "contract-fault", file, fault: contract.error });
  // Refused, the plan is named as the contract's: the path came from its plan: line, not the command line.
  const named = `${file}: the plan it names (${contract.value.plan})`;
  return readIfThere(repo, contract.value.plan, named, maxBytes).andThen((planText) => checkedAgainst(file, contract.value, planText));
}

/** A parsed contract and its plan's bytes (when read): a plan that drifted since compiling is a fault. */
function checkedAgainst(file: string, contract: Contract, planText: Uint8Array | undefined): Result<Loaded, CliFault> {
  if (planText === undefined) return ok({ contract, planText: undefined, file });
  const decoded = decodeUtf8(planText);
  if (decoded.isErr()) return err({ code: "contract-fault", file: contract.plan, fault: decoded.error });
  if (planDrift(contract, planText).length > 0) {
    return err({ code: "plan-drifted", contract: file, plan: contract.plan, recorded: contract.plan_sha256, actual: planSha256(planText) });
  }
  return ok({ contract, planText, file });
}

/** How `loadContract` reads: the bound on what it reads, and whether the run includes optional stages. */
export interface LoadOptions {
  readonly maxBytes?: number;
  /** `--include-optional`: an optional stage with no acceptance row is then refused like a required one. */
  readonly includeOptional?: boolean;
}

/** The contract of PLAN.md or contract.md, refused before anything runs when its self-check refuses. */
export function loadContract(cwd: string, file: string, repo: string, options: LoadOptions = {}): ResultAsync<Loaded, CliFault> {
  const { maxBytes, includeOptional = false } = options;
  const loaded = read(cwd, file, maxBytes).andThen((bytes) => {
    // Strict: a plan or contract that is not UTF-8 is refused, never read with U+FFFD in it.
    const decoded = decodeUtf8(bytes);
    if (decoded.isErr()) return errAsync<Loaded, CliFault>({ code: "contract-fault", file, fault: decoded.error });
    const text = decoded.value;
    return looksLikeContract(text) ? parsed(file, repo, text, maxBytes) : compiled(file, resolve(cwd, file), repo, text, bytes);
  });
  return loaded.andThen((l) =>
    refusals(l.contract, l.planText, includeOptional)
      .map(() => l)
      .mapErr((fault): CliFault => ({ code: "exec", input: file, fault })),
  );
}

/** The agent's program: a path (relative to the working directory) or a name on PATH, executable. */
export function agentProgram(cwd: string, env: Readonly<Record<string, string | undefined>>, command: string): Result<string, CliFault> {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes("/")) {
    const path = resolve(cwd, command);
    return executable(path) ? ok(path) : err({ code: "agent-not-found", command, reason: "is not an executable file" });
  }
  const found = (env.PATH ?? "")
    .split(delimiter)
    .filter((d) => d !== "")
    // A relative entry (`tools`, `.`) is relative to the working directory, where the agent is
    // looked up, not to the repository the agent later runs in.
    .map((d) => resolve(cwd, d, command))
    .find(executable);
  return found === undefined ? err({ code: "agent-not-found", command, reason: "is not a command on PATH" }) : ok(found);
}
