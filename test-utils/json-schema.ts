// For tests only: a CLI's `--json` output checked against the package's shipped JSON Schemas. The
// output's `$schema` must be the `$id` of a file in the package's schemas/ folder, and the output
// must validate against that file (JSON Schema draft 2020-12, every error reported).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

type Validate = ReturnType<Ajv2020["compile"]>;

const byDir = new Map<string, Map<string, Validate>>();

/** Every schema file of a schemas/ folder, compiled, by its `$id`. */
function validators(schemasDir: string): Map<string, Validate> {
  const known = byDir.get(schemasDir);
  if (known !== undefined) return known;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const found = new Map<string, Validate>();
  for (const name of readdirSync(schemasDir).filter((n) => n.endsWith(".json"))) {
    const schema = JSON.parse(readFileSync(join(schemasDir, name), "utf8")) as Record<string, unknown>;
    if (typeof schema.$id === "string") found.set(schema.$id, ajv.compile(schema));
  }
  byDir.set(schemasDir, found);
  return found;
}

/**
 * The complaints about one `--json` output (empty when it is valid): no `$schema`, a `$schema`
 * that is no shipped file's `$id`, or what the schema says is wrong with it.
 */
export function outputProblems(output: unknown, schemasDir: string): string[] {
  const id = typeof output === "object" && output !== null && "$schema" in output ? output.$schema : undefined;
  if (typeof id !== "string") return ["the output has no $schema"];
  const validate = validators(schemasDir).get(id);
  if (validate === undefined) return [`no file in ${schemasDir} has the $id ${id}`];
  return validate(output) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}
