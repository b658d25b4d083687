import { resolve } from "node:path";
import { oneLine } from "@decay/portable";
import { errAsync, type ResultAsync } from "neverthrow";
import { grantPublication, type PublicationAuthority } from "../publish/authority.js";
import { describePublishFault } from "../publish/fault.js";
import { type PublishOutcome, publishOutcome } from "../publish/publish.js";
import type { SavedRecord } from "../store/envelope.js";
import type { PendingStore } from "../store/store.js";
import { githubTransport } from "../transport/github.js";
import { githubConfig } from "../transport/github-config.js";
import type { GlobalOptions, PublishFlags } from "./args.js";
import { openStore, type Outcome } from "./commands.js";
import type { CliFault } from "./fault.js";
import type { CliIo } from "./io.js";

/** The operator's authority: `--allow-publish` plus the content hash they approved. */
function authorityFor(record: SavedRecord, flags: PublishFlags): PublicationAuthority | undefined {
  if (!flags.allowPublish || flags.contentSha256 === undefined) return undefined;
  return grantPublication({
    repo: record.repo,
    pr: record.pr.value,
    task: record.task,
    attempt: record.attempt,
    authorId: flags.authorId ?? record.author.id.value,
    authorLogin: flags.authorLogin ?? record.author.login,
    contentSha256: flags.contentSha256,
    allowPublish: true,
  });
}

function outcomeOf(store: PendingStore, path: string, { record, stopped }: PublishOutcome): ResultAsync<Outcome, CliFault> {
  // What stopped this run, in words, on the reason's line: the saved code alone does not say what to do.
  const detail = stopped === null ? undefined : oneLine(describePublishFault(stopped));
  const said: Record<string, string> = detail === undefined ? {} : { detail };
  return store.load(path).map((envelope): Outcome => {
    if (record.evidence_status === "published") {
      const url = record.canonical_url ?? "";
      // Still published, but this run could not confirm it (the forge was unreachable).
      if (envelope.reason !== null) {
        return {
          exit: 1,
          text: `published ${url}\nreason ${envelope.reason}: the record stays published; this run could not reach the forge to confirm it${detail === undefined ? "" : ` (${detail})`}\n`,
          json: { evidence_status: "published", canonical_url: url, path, reason: envelope.reason, ...said },
        };
      }
      return { exit: 0, text: `published ${url}\n`, json: { evidence_status: "published", canonical_url: url, path } };
    }
    const reason = envelope.reason ?? "not-published";
    return {
      exit: 1,
      text: `evidence-pending ${oneLine(path)}\nreason ${reason}${detail === undefined ? "" : `: ${detail}`}\n`,
      json: { evidence_status: "evidence-pending", reason, path, ...said },
    };
  });
}

/**
 * `publish PATH --github OWNER/REPO [--allow-publish --content-sha256 HEX]`: publishes one
 * envelope through GitHub (or the transport `io` supplies); exit 0 published, 1 still pending.
 */
export function publishCommand(io: CliIo, file: string, flags: PublishFlags, global: GlobalOptions): ResultAsync<Outcome, CliFault> {
  // An empty name would resolve to the working directory, and be named as that.
  if (file === "") return errAsync({ code: "input-unreadable", path: file, reason: "the name is empty, and an empty argument names no file" });
  const token = io.env["GITHUB_TOKEN"];
  if (token === undefined || token === "") return errAsync({ code: "token-missing" });
  const path = resolve(io.cwd, file);
  return openStore(io, global).andThen((store) =>
    store.load(path).andThen((envelope) => {
      const record = envelope.record;
      const ownerRepo = record.repo.split("/").slice(1).join("/");
      if (ownerRepo !== flags.github) {
        return errAsync<Outcome, CliFault>({ code: "github-repo-mismatch", given: flags.github, record: record.repo });
      }
      const author = flags.authorId === undefined || flags.authorLogin === undefined ? undefined : { id: flags.authorId, login: flags.authorLogin };
      const interrupt = new AbortController();
      const options = {
        token,
        repo: record.repo,
        signal: interrupt.signal,
        ...(flags.apiUrl === undefined ? {} : { baseUrl: flags.apiUrl }),
        ...(author ? { author } : {}),
      };
      // Settings the transport would refuse on every call (plain http to a remote host, a token
      // holding whitespace) are the operator's input: exit 2 before anything is saved or sent.
      const settings = githubConfig(options);
      if (settings.isErr()) return errAsync<Outcome, CliFault>({ code: "publish-settings", detail: settings.error.message });
      const transport = (io.transport ?? githubTransport)(options);
      const authority = authorityFor(record, flags);
      // Interrupted, the transport stops and the run ends as after the forge went away: a
      // published record met by a failed lookup stays published, nothing is left half-saved.
      const release = io.onInterrupt?.(() => interrupt.abort()) ?? (() => {});
      return publishOutcome(path, { store, transport, ...(authority ? { authority } : {}) })
        .andThen((outcome) => outcomeOf(store, path, outcome))
        .andTee(release)
        .orTee(release);
    }),
  );
}
