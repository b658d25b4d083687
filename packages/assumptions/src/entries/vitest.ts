// @decay/assumptions/vitest: the `toHold` matcher. Register it once: `expect.extend({ toHold })`.
// Imported for its types only: a module augmentation needs the augmented module in the program.
import type {} from "vitest";
export { toHold } from "../matcher/to-hold.js";
export type { HoldResult } from "../matcher/to-hold.js";

/** The call signature `toHold` adds to vitest's assertions. */
interface PlanMatchers<R = unknown> {
  /** Passes when a checkTree() Report holds; the failure lists each diverged row. */
  toHold(): R;
}

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: the augmentation must repeat vitest's own declaration, `any` included.
  interface Assertion<T = any> extends PlanMatchers<T> {}
  interface AsymmetricMatchersContaining extends PlanMatchers {}
}
