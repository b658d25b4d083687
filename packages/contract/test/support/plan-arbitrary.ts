// fast-check generators for whole plans built from the pieces people write (never exported by the package).
import fc from "fast-check";

/** A generated plan: its text, and what a reader must keep from it or name in a fault. */
export type GeneratedPlan = {
  text: string;
  /** Each stage written: its label, its unique title, the commands of its acceptance lines. */
  stages: { label: string; title: string; runs: string[] }[];
  /** Guardrails written, in order. */
  guardrails: string[];
  /** Whether a piece that must be refused (a near-miss nobody can read) was written. */
  bad: boolean;
  /** The first line of each such piece: a fault must name one of them. */
  badLines: number[];
};

/**
 * Lines, the commands of the rows they give, whether they must be refused, and at which of its lines
 * (the first when not given); `guards`: the guardrails they add.
 */
type Piece = { lines: string[]; runs: string[]; bad: boolean; badAt?: number; guards?: string[] };
const piece = (lines: string[], runs: string[] = [], bad = false, badAt?: number): Piece => ({ lines, runs, bad, ...(badAt === undefined ? {} : { badAt }) });

/** Body pieces of stage `k`: prose, acceptance in every form read, near-misses, hidden text. */
function bodyPiece(k: number, j: number, level: number, label: string, headingBad = false, nextNumbered = false): fc.Arbitrary<Piece> {
  const c = `c${k}x${j}`;
  // A bold line with the stage's own keyword is a stage lost to the wrong syntax; under `S2` it is prose.
  const keyword = /^(Stage|Phase|Step|Milestone) /.exec(label)?.[1];
  const bold = keyword ? piece([`**${keyword} ${k}0: written in bold**`], [], true) : piece(["**Notes**"]);
  // The next stage in the short form one level too deep: its rows would count for this stage (unless
  // the plan has a stage of that number, when it is about something else).
  const shortForm = /^(?:Stage |S)\d/.test(label) && !nextNumbered;
  // (Under a heading refused for its number, no stage opens above it: it would open the stages one level down.)
  const tooDeep = headingBad ? piece(["Body line after a refused heading."]) : piece([`${"#".repeat(level + 1)} S${k + 1}: one level too deep`], [], shortForm);
  // A bold label opens a guardrails section over the list right under it, and no further.
  // (A paragraph ends the list: code right after a list would be its last item's.)
  const outOfScope: Piece = { ...piece(["**Out of scope**", "", `- Never ${c}.`, "", "That is all."]), guards: [`Never ${c}.`] };
  return fc.constantFrom(
    piece(["Body line with `code` and words."]),
    piece([`Acceptance: \`${c}\` exits 0.`], [c]),
    piece([`**Acceptance:** \`${c}\` prints \`ok\``], [c]),
    piece([`- [ ] Acceptance: \`${c}\``], [c]),
    piece([`> Acceptance: \`${c}\` exits 1`, "> and prints `done`"], [c]),
    // Quotes, list items and checkboxes nest in any order around a label.
    piece([`- > Acceptance: \`${c}\` exits 0`], [c]),
    piece([`> 1. [x] **Acceptance:** \`${c}\``], [c]),
    piece([`- [ ] > > Acceptance: \`${c}\` exits 2`], [c]),
    piece(["**Acceptance criteria:**", "", `- \`${c}\` exits 0`, `- \`${c}b\` prints \`x\``], [c, `${c}b`]),
    piece([`Acceptance: \`${c}\``, "  and matches /^ok$/"], [c]),
    piece([`**Gate:** \`${c}\` passes.`], [c]),
    piece(["Gate: sign-off by the owner."]),
    piece(["Exit criteria: the thing works."]),
    piece(["---"]),
    piece(["<!--", "### Stage 99: commented out", `Acceptance: \`hidden${c}\``, "-->"]),
    piece(["```sh", "### Stage 98: in a fence", `Acceptance: \`fenced${c}\``, "```"]),
    piece(["<!-- decay: prose -->", `Acceptance tests: \`prose${c}\` are run by hand.`]),
    // CommonMark's blocks: a backtick line with a backtick after it is no fence; a fence in a quote is code;
    // a list item's own paragraph and blank lines between items end no acceptance list.
    piece(["```` ``` ```` is no fence, only a code span."]),
    piece(["> ```", `> Acceptance: \`quoted${c}\``, "> ```"]),
    piece(["Acceptance:", "", `- \`${c}\` exits 0`, "", "  Checks what it says.", "", "", `- \`${c}c\``], [c, `${c}c`]),
    piece([`Acceptance gate: \`${c}\``], [], true),
    piece([`Acceptance: run \`${c}\` and expect 0`], [], true),
    piece(["Acceptance:", "", "```sh", c, "```"], [], true),
    piece([`${"#".repeat(level)} Stage 9-10: misplaced`], [], true),
    // A stage heading with no space after its #s, or in HTML, is no heading: refused, never merged into this stage.
    piece([`${"#".repeat(level)}Stage ${k}1: no space`], [], true),
    piece([`<h${level}>Phase ${k}2: in HTML</h${level}>`], [], true),
    // Seven #s and an HTML heading over lines are no heading either.
    piece([`####### Stage ${k}3: too deep`], [], true),
    piece([`<h${level}>`, `Step ${k}4: in HTML over lines`, `</h${level}>`], [], true),
    // A break ends an acceptance list: an item after it that would be a row, prose between, is refused at the break.
    piece(["Acceptance:", "", `- \`${c}\` exits 0`, "", "---", "", "Then:", "", `- \`${c}r\` exits 0`], [c], true, 4),
    bold,
    piece(["#### Exit criteria", "", "- it works", "- it is fast"]),
    piece(["#### Notes on this stage"]),
    piece(["Exit test: it runs."], [], true),
    // `Optional:` going on to text may name one step or the whole stage: refused.
    piece([`Optional: also add a printer for ${c}.`], [], true),
    tooDeep,
    outOfScope,
  );
}

/** A stage heading: its lines, label and title, and whether it must be refused (at its first line). */
type StageHead = { lines: string[]; label: string; title: string; bad?: boolean };

/** A stage heading for stage `k` at `level`, with its label and unique title; now and then one whose number is too long to be a stage. */
function stageHeading(k: number, level: number): fc.Arbitrary<StageHead> {
  const title = `title${k}`;
  const h = "#".repeat(level);
  const letter = String.fromCharCode(65 + (k % 26));
  const forms = [
    { lines: [`${h} Stage ${k}: ${title}`], label: `Stage ${k}`, title },
    { lines: [`${h} Stage ${k} — ${title}`], label: `Stage ${k}`, title },
    { lines: [`${h} Phase ${letter}: ${title}`], label: `Phase ${letter}`, title },
    { lines: [`${h} **Step ${k}: ${title}**`], label: `Step ${k}`, title },
    { lines: [`${h} Milestone ${k}. ${title}`], label: `Milestone ${k}`, title },
    { lines: [`${h} S${k}: ${title}`], label: `S${k}`, title },
  ];
  if (level === 2) forms.push({ lines: [`Stage ${k}: ${title}`, "-------------"], label: `Stage ${k}`, title });
  // A stage number over 200 digits and dots opens no stage: refused at its heading, the only stage's too.
  const long = { lines: [`${h} Stage ${k}${".1".repeat(101)}: ${title}`], label: `Stage ${k}`, title, bad: true };
  return fc.oneof({ arbitrary: fc.constantFrom(...forms), weight: 12 }, { arbitrary: fc.constant(long), weight: 1 });
}

const guardrailSection = (n: number, head: string): fc.Arbitrary<{ lines: string[]; items: string[] }> =>
  fc.constantFrom("", "---", "<!-- a note -->").map((tail) => {
    const items = Array.from({ length: n }, (_, k) => `Do not ${head.length}x${k} before the rest.`);
    return { lines: [head, "", ...items.map((i) => `- ${i}`), ...(tail ? ["", tail] : [])], items };
  });

/** Whether a stage heading opens a stage numbered as `Stage N` or `S N` are. */
const numbered = (h: StageHead | undefined): boolean => h !== undefined && h.bad !== true && /^(?:Stage |S)\d/.test(h.label);

/** Any plan made of those pieces: stages at one level, prohibitions sections before and after. */
export const planArb: fc.Arbitrary<GeneratedPlan> = fc
  .record({
    level: fc.constantFrom(2, 3),
    withHeading: fc.boolean(),
    stageCount: fc.integer({ min: 1, max: 4 }),
    before: fc.option(fc.integer({ min: 1, max: 2 }), { nil: null }),
    after: fc.option(fc.integer({ min: 1, max: 2 }), { nil: null }),
  })
  .chain(({ level, withHeading, stageCount, before, after }) =>
    fc
      .tuple(
        fc.tuple(...Array.from({ length: stageCount }, (_, i) => fc.tuple(stageHeading(i + 1, level), fc.array(fc.nat(), { maxLength: 4 })))),
        before === null ? fc.constant(null) : guardrailSection(before, "## What not to do"),
        after === null ? fc.constant(null) : guardrailSection(after, "## Guardrails"),
      )
      .chain(([stages, pre, post]) =>
        fc
          .tuple(
            ...stages.map(([, js], i) =>
              fc.tuple(...js.map((_, j) => bodyPiece(i + 1, j, level, stages[i]?.[0].label ?? "", stages[i]?.[0].bad === true, numbered(stages[i + 1]?.[0])))),
            ),
          )
          .map((bodies) => assemble({ level, withHeading, stages: stages.map(([h]) => h), bodies, pre, post })),
      ),
  );

type Parts = {
  level: number;
  withHeading: boolean;
  stages: StageHead[];
  bodies: Piece[][];
  pre: { lines: string[]; items: string[] } | null;
  post: { lines: string[]; items: string[] } | null;
};

function assemble({ level, withHeading, stages, bodies, pre, post }: Parts): GeneratedPlan {
  const blocks: string[][] = [["# A plan"]];
  let line = 1;
  const push = (lines: string[]): number => {
    const at = line;
    blocks.push(lines);
    line += lines.length + 1;
    return at;
  };
  line = 3;
  if (pre) push(pre.lines);
  if (withHeading) push([`${"#".repeat(Math.max(2, level - 1))} Recommendation`]);
  const out: GeneratedPlan["stages"] = [];
  const badLines: number[] = [];
  const inStages: string[] = [];
  for (const [k, s] of stages.entries()) {
    if (s.bad) badLines.push(push(s.lines));
    else push(s.lines);
    const body = bodies[k] ?? [];
    let exits = 0;
    for (const p of body) {
      const at = push(p.lines);
      if (p.bad) badLines.push(at + (p.badAt ?? 0));
      inStages.push(...(p.guards ?? []));
      // A second Exit line in one stage is a fault too, named at that line.
      if (/^(?:#+ )?Exit criteria/.test(p.lines[0] ?? "") && ++exits > 1) badLines.push(at);
    }
    out.push({ label: s.label, title: s.title, runs: body.flatMap((p) => p.runs) });
  }
  if (post) push(post.lines);
  const guardrails = [...(pre?.items ?? []), ...inStages, ...(post?.items ?? [])];
  const text = `${blocks.map((b) => b.join("\n")).join("\n\n")}\n`;
  return { text, stages: out, guardrails, bad: badLines.length > 0, badLines };
}
