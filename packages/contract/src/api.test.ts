import type { ResultAsync, Result } from "neverthrow";
import { describe, expectTypeOf, test } from "vitest";
import * as cli from "./entries/cli.js";
import * as api from "./index.js";
import type { Contract, ContractFault, Finding, Imported, Plan } from "./index.js";

describe("the public API's types are part of its promise", () => {
  test("functions return Results whose error is the ContractFault union", () => {
    expectTypeOf(api.readPlan).returns.toEqualTypeOf<Result<Plan, ContractFault>>();
    expectTypeOf(api.compileContract).returns.toEqualTypeOf<ResultAsync<Contract, ContractFault>>();
    expectTypeOf(api.parseContract).returns.toEqualTypeOf<Result<Contract, ContractFault>>();
    expectTypeOf(api.selfCheck).returns.toEqualTypeOf<Finding[]>();
    expectTypeOf(api.planDrift).returns.toEqualTypeOf<Finding[]>();
    expectTypeOf(api.importPlan).returns.toEqualTypeOf<Result<Imported, ContractFault>>();
    expectTypeOf(cli.main).returns.toEqualTypeOf<Promise<number>>();
  });
  test("the Contract has the field names of the issue", () => {
    expectTypeOf<keyof Contract>().toEqualTypeOf<"plan" | "plan_sha256" | "fresh_state" | "commit_per_stage" | "guardrails" | "falsifiers" | "stages">();
    expectTypeOf<keyof Contract["stages"][number]>().toEqualTypeOf<
      "id" | "label" | "title" | "instructions" | "exit_criterion" | "acceptance" | "depends_on" | "optional"
    >();
    expectTypeOf<keyof Finding>().toEqualTypeOf<"code" | "severity" | "stage" | "row" | "message" | "plan_line">();
    expectTypeOf<ContractFault["line"]>().toEqualTypeOf<number>();
  });
});
