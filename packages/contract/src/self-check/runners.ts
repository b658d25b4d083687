import { commandPath, ownEntry, programName } from "./words.js";

const RUNNERS = new Set(["vitest", "jest", "mocha", "ava", "tap", "pytest", "py.test", "phpunit", "rspec", "tox", "nox", "ctest", "karma", "nextest"]);
const SUBCOMMAND_TEST: Record<string, RegExp> = {
  go: /^test$/,
  cargo: /^(?:test|nextest)$/,
  deno: /^test$/,
  dotnet: /^test$/,
  mvn: /^(?:test|verify)$/,
  gradle: /^(?:test|check)$/,
  gradlew: /^(?:test|check)$/,
  make: /^(?:test|check)$/,
  playwright: /^test$/,
  cypress: /^run$/,
};
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx"]);

/** The test runner a command runs (`pnpm test`, `npx vitest`, `go test`, `python -m pytest`…); null otherwise. */
export function testRunner(argv: string[]): string | null {
  const name = programName(argv[0] ?? "");
  const pos = commandPath(argv);
  if (RUNNERS.has(name)) return name;
  if (ownEntry(SUBCOMMAND_TEST, name)?.test(pos[0] ?? "")) return `${name} ${pos[0]}`;
  if (/^python[0-9.]*$/.test(name) && argv[1] === "-m" && /^(?:pytest|unittest)$/.test(argv[2] ?? "")) {
    return `${name} -m ${argv[2]}`;
  }
  if (!PACKAGE_MANAGERS.has(name)) return null;
  const [first, second] = pos[0] === "exec" || pos[0] === "dlx" ? [pos[1], undefined] : [pos[0], pos[1]];
  if (first === "test" || first === "t" || ((first === "run" || first === "run-script") && /^test\b/.test(second ?? ""))) {
    return `${name} test`;
  }
  return first !== undefined && (RUNNERS.has(first) || first === "playwright") ? `${name} ${first}` : null;
}
