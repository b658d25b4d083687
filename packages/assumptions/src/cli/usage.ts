import { version } from "../../package.json";

/** The package version `--version` prints. */
export const VERSION: string = version;

/** What `--help` prints. */
export const USAGE = `plan-decay: check a plan's written assumptions against a repository tree.

usage:
  plan-decay --root DIR [--ref REF] [--descend-submodules] [--json | --format F]
             [--max-input-bytes N] FILE
  plan-decay --root DIR [--ref REF] [--descend-submodules] --digest PATH
  plan-decay author --root DIR [--ref REF] [--descend-submodules] [--reads P]... [--edits P]...
             [--creates P]... [-o FILE]
  plan-decay --help | --version

  FILE             the assumptions file (TAB-separated rows); - reads standard input.
                   A plan file named "author" is passed as ./author.
  --root DIR       the tree to check; required, never defaulted.
  --ref REF        check that git ref of the repository at DIR instead of its working files:
                   HEAD, a branch, a tag, a full ref or a commit id (4 to 40 hex digits),
                   optionally with ~N, ~, ^ or ^N suffixes (HEAD~1, main^2).
  --descend-submodules  check inside a checked-out submodule (a nested repository under DIR)
                   as ordinary directories; without it a row that names or reaches into one
                   is a fault. A submodule in a --ref commit is a gitlink: always a fault.
  --json           print the report (or the fault) as JSON; see @decay/assumptions/schemas/report.schema.json.
  --format github  print one ::error workflow annotation per diverged row (titled with its
                   kind and path), then the report.
  --format sarif   print a SARIF 2.1.0 log instead: one result per diverged row, at its line
                   of FILE (named from its repository root); see docs/plan-decay-cli.md.
  --format junit   print JUnit XML instead: one test case per row, a failure per diverged row.
  --max-input-bytes N  refuse an assumptions file larger than N bytes (default 67108864,
                   64 MiB; at most 268435456); a FIFO, device or socket is refused whatever its size.
  --digest PATH    print "DIGEST PATH HEX", the value an unchanged row needs, and exit 3.
  author           write an assumptions file: unchanged rows for --reads and --edits,
                   absent rows for --creates; -o writes FILE atomically instead of stdout
                   (-o - is stdout; an existing FILE that is not a regular file is refused,
                   and so is a FILE the plan names: a --reads, --edits or --creates path
                   under DIR, with or without --ref).

exit codes:
  0  every assumption holds          2  a fault or usage error (message on stderr)
  1  at least one diverged: HALT     3  a digest was printed
`;
