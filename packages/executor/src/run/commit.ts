import type { Stage } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, step } from "./deps.js";

/**
 * Make a commit once: when a commit since `base` already carries this step's `Decay-Step:` marker
 * (the step ran before and was interrupted), that commit is the result and nothing is made again.
 * `make` gets the marker line to put in its message and answers the new commit (null: nothing to
 * commit, HEAD is the result).
 */
async function once(
  d: Deps,
  base: string,
  key: string,
  make: (marker: string) => PromiseLike<Result<string | null, ExecFault>>,
): Promise<Result<string, ExecFault>> {
  const marker = `Decay-Step: ${d.slug}/${key}`;
  const head = await d.git.head();
  if (head.isErr()) return err(head.error);
  const log = await d.git.log(base, head.value);
  if (log.isErr()) return err(log.error);
  const done = log.value.find((c) => c.message.includes(marker));
  if (done) return ok(done.id);
  const made = await make(marker);
  return made.map((id) => id ?? head.value);
}

/**
 * Commit what an execute or fix call left in the working tree, as a step safe to run twice.
 * Returns HEAD afterwards (unchanged when there was nothing to commit).
 */
export function commitStep(d: Deps, base: string, stage: Stage, attempt: number, what: "execute" | "fix"): Promise<Result<string, ExecFault>> {
  const key = `${stage.id}/a${attempt}/commit`;
  return step(d, key, () =>
    once(d, base, key, (marker) => d.git.commitAll(`decay(${d.slug}): ${stage.id} ${stage.title || stage.label}, attempt ${attempt} (${what})\n\n${marker}\n`)),
  );
}

/** Revert a refused fix's commit, as a step safe to run twice; the revert commit. */
export function revertStep(d: Deps, base: string, stage: Stage, attempt: number, commit: string): Promise<Result<string, ExecFault>> {
  const key = `${stage.id}/a${attempt}/revert`;
  return step(d, key, () =>
    once(d, base, key, (marker) =>
      d.git.revert(commit, `decay(${d.slug}): revert ${commit.slice(0, 12)}, a fix that touched acceptance\n\n${marker}\n`).map((id): string | null => id),
    ),
  );
}
