// The one file through which the CLI reaches the core: the core's public names, and `checkParsed`
// (for rows the CLI parsed itself).
export { ASSUMPTIONS_FAULT_CODES } from "../core/faults.js";
export type { AssumptionsFault, AssumptionsFaultCode } from "../core/faults.js";
export { describeFault } from "../core/describe.js";
export type { Report, ReportRow } from "../core/model.js";
export { parseAssumptions } from "../core/parse.js";
export { checkParsed, checkTree } from "../core/check.js";
export { digestPath } from "../core/digest.js";
export { authorAssumptions } from "../core/author.js";
