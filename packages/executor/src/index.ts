/**
 * `@decay/executor` will run an acceptance contract stage by stage. Nothing is exported yet:
 * see this package's README for what it will hold.
 */
export const EXECUTOR_STATUS = "not-yet-implemented" as const;
