/**
 * What `runPlan` is written against: every effect of a run happens inside a named step whose
 * result is small JSON. A durable engine records each result and, after a crash, feeds the
 * recorded ones back instead of running them again; an interrupted step runs again, so every
 * step is safe to run twice.
 */
export interface StepContext {
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/** The default runner: each step just runs. A run killed mid-way resumes through preflight. */
export function inMemoryRunner(): StepContext {
  return { step: (_name, fn) => fn() };
}
