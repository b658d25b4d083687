import type { StepContext } from "../runner.js";

/** One recorded step: its name and its result as JSON, as a durable engine stores it. */
export interface RecordedStep {
  readonly name: string;
  readonly json: string;
}

/** Thrown by `killAfter` to stand for a process killed mid-step. */
export class Killed extends Error {
  constructor(
    readonly step: number,
    readonly stepName: string,
  ) {
    super(`killed during step ${step} (${stepName})`);
  }
}

/** A runner that runs every step and records its result, as a durable engine does. */
export function recordingRunner(log: RecordedStep[] = []): StepContext & { readonly log: RecordedStep[] } {
  return {
    log,
    async step(name, fn) {
      const value = await fn();
      log.push({ name, json: JSON.stringify(value) ?? "null" });
      return JSON.parse(JSON.stringify(value) ?? "null");
    },
  };
}

/**
 * A runner that records steps and dies during step `k` (1-based): after the step's effect, before
 * its result is recorded, as a process killed at the worst moment would.
 */
export function killAfter(k: number, log: RecordedStep[] = []): StepContext & { readonly log: RecordedStep[] } {
  const inner = recordingRunner(log);
  let n = 0;
  return {
    log,
    async step(name, fn) {
      n += 1;
      if (n < k) return inner.step(name, fn);
      await fn();
      throw new Killed(n, name);
    },
  };
}

/**
 * A runner that feeds back recorded results instead of running their steps (checking each name
 * matches, so a body that is not deterministic is caught), then runs and records the rest.
 */
export function replayRunner(recorded: readonly RecordedStep[]): StepContext & { readonly log: RecordedStep[] } {
  const log: RecordedStep[] = [];
  const live = recordingRunner(log);
  let n = 0;
  return {
    log,
    async step(name, fn) {
      const at = n++;
      const rec = recorded[at];
      if (rec === undefined) return live.step(name, fn);
      if (rec.name !== name) throw new Error(`replay diverged at step ${at + 1}: recorded ${rec.name}, the body asked for ${name}`);
      log.push(rec);
      return JSON.parse(rec.json);
    },
  };
}
