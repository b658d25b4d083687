/** The package version, as in package.json (a test keeps them equal); `decay --version` prints it. */
export const VERSION = "0.1.0";
