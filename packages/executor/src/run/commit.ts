import type { Stage } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, step } from "./deps.js";

/**
 * Commit what an execute or fix call left in the working tree, as a step safe to run twice: a
 * commit carrying this step's marker since the stage's base is the step's result. Returns HEAD
 * afterwards (unchanged when there was nothing to commit).
 */
export function commitStep(d: Deps, base: string, stage: Stage, attempt: number, what: "execute" | "fix"): Promise<Result<string, ExecFault>> {
  const key = `${stage.id}/a${attempt}/commit`;
  const marker = `Decay-Step: ${d.slug}/${key}`;
  return step(d, key, async () => {
    const head = await d.git.head();
    if (head.isErr()) return err(head.error);
    const log = await d.git.log(base, head.value);
    if (log.isErr()) return err(log.error);
    const done = log.value.find((c) => c.message.includes(marker));
    if (done) return ok(done.id);
    const message = `decay(${d.slug}): ${stage.id} ${stage.title || stage.label}, attempt ${attempt} (${what})\n\n${marker}\n`;
    const made = await d.git.commitAll(message);
    if (made.isErr()) return err(made.error);
    return ok(made.value ?? head.value);
  });
}
