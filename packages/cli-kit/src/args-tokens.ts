// argv into parseArgs's tokens, in linear time.
import { parseArgs } from "node:util";

/** What `parseArgs` takes as `options`. */
export type NodeOptions = Record<string, { type: "string" | "boolean"; short?: string }>;

/** One token as `parseArgs` gives it with `tokens: true`. */
type Token = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

// parseArgs copies argv and shifts it one argument at a time; past about 16,000 arguments the
// copy lies where V8 cannot trim an array from the front, so each shift moves all the rest
// (40,000 `--creates` of `plan-decay author` spent 2.2 s there).
const RUN = 4096;

/**
 * Whether parseArgs may take the argument after `arg` as its value: a long string option without
 * `=`, or a lone short one or a group of short flags ending in one (`-o`, `-ho`). Anything
 * unusual (`--`, a `-` or `=` inside a group) counts as may: a run is then only cut later.
 */
function mayTakeNext(arg: string, options: NodeOptions, shortTypes: ReadonlyMap<string, string>): boolean {
  if (arg.length < 2 || arg[0] !== "-") return false;
  if (arg[1] === "-") return arg === "--" || (!arg.includes("=") && options[arg.slice(2)]?.type === "string");
  const shorts = arg.slice(1);
  if (shorts.includes("-") || shorts.includes("=")) return true;
  for (let i = 0; i < shorts.length; i += 1) if (shortTypes.get(shorts[i] as string) === "string") return i === shorts.length - 1;
  return false;
}

/**
 * `parseArgs(...).tokens` for argv, read in runs of about `run` arguments so that the cost stays
 * linear: a run ends only after an argument parseArgs cannot take the next one as the value of;
 * a run holding an option terminator takes the rest of argv with it.
 */
export function tokensOf(argv: readonly string[], options: NodeOptions, run = RUN): Token[] {
  const parse = (from: number, to: number) => parseArgs({ args: argv.slice(from, to), options, strict: false, allowPositionals: true, tokens: true }).tokens;
  const terminated = (part: readonly Token[]) => part.some((t) => t.kind === "option-terminator");
  // Each one-letter flag's type, by its letter: looked up at every run's end.
  const shortTypes = new Map(Object.values(options).flatMap((o) => (o.short === undefined ? [] : [[o.short, o.type] as const])));
  const tokens: Token[] = [];
  for (let start = 0; start < argv.length; ) {
    let end = Math.min(argv.length, start + run);
    while (end < argv.length && mayTakeNext(argv[end - 1] as string, options, shortTypes)) end += 1;
    let part = parse(start, end);
    // After a terminator parseArgs takes the rest in one pass (and numbers it its own way, past
    // a group of short flags): so the rest is read with the run that holds the terminator.
    if (end < argv.length && terminated(part)) part = parse(start, (end = argv.length));
    for (const t of part) tokens.push(start === 0 ? t : { ...t, index: t.index + start });
    start = end;
  }
  return tokens;
}
