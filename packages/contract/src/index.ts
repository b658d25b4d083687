/** Placeholder while the package is written. */
export const VERSION = "0.1.0";
