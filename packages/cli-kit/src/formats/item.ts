/** One checked thing as the CI formats show it: a gate row, a self-check finding, an acceptance row. */
export interface CheckItem {
  /** The rule it was checked by: the row's kind or the finding's code (SARIF ruleId, JUnit failure type). */
  readonly ruleId: string;
  /** A short name: the JUnit test case name, and the GitHub annotation title unless `title` is given. */
  readonly name: string;
  /** The GitHub annotation title, when it differs from `name`. */
  readonly title?: string;
  /** `pass` held; `error` failed the check; `warning` is reported without failing it. */
  readonly outcome: "pass" | "error" | "warning";
  /** The sentence saying what was found. */
  readonly message: string;
  /** The file it sits in, relative to the repository root, `/`-separated; absent for standard input. */
  readonly file?: string;
  /** Its 1-based line in that file. */
  readonly line?: number;
}

/** The tool a report comes from. */
export interface ToolInfo {
  readonly name: string;
  readonly version: string;
  readonly informationUri: string;
  /** Every rule the tool can report, with a one-line description. */
  readonly rules: readonly { readonly id: string; readonly description: string }[];
}
