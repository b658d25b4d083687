/** `decay --help`. */
export const HELP = `decay: run an acceptance contract stage by stage; green only from acceptance in a clean room.

Usage:
  decay run PLAN.md|contract.md --agent "CMD ARGS…" [--repo DIR] [--assumptions FILE]
            [--include-optional] [--budget N] [--token-target N]
            [--clean-room clone|worktree|isomorphic] [--setup "CMD"] [--json] [--durable DIR]
            [--max-input-bytes N] [--pattern-timeout-ms N] [--agent-timeout-ms N]
            [--execute-may-edit-surface]
  decay preflight PLAN.md|contract.md [--repo DIR] [--include-optional] [--clean-room K] [--setup "CMD"] [--json]
                  [--max-input-bytes N] [--pattern-timeout-ms N]
  decay verify PLAN.md|contract.md [--repo DIR] [--include-optional] [--clean-room K] [--setup "CMD"] [--json]
               [--max-input-bytes N] [--pattern-timeout-ms N]
  decay report DIR [--json]
  decay journal show|resume|next PLAN.md ...   a task plan's execution record (decay journal --help)
  decay worker --database-url URL --executor-id ID --app-version V --agent "CMD ARGS…"
            [--concurrency N] [--workspace DIR] [--clean-room K] [--bundle DIR] [--queue NAME]
            [--pattern-timeout-ms N]
  decay enqueue PLAN.md|contract.md --repo SOURCE --database-url URL [--queue NAME]
                [--include-optional] [--execute-may-edit-surface] [--budget N] [--setup "CMD"] [--json]
  decay runs [show ID] --database-url URL [--json]
  decay --help | --version

Commands:
  run        compile the plan (or read the contract), then execute, verify, diagnose and fix each
             stage with the agent; REPORT.md and report.json in DIR/.plan-runs/<slug>/
  preflight  every stage's acceptance in one fresh clean room of HEAD, no agent: what is green now
  verify     the same, as the final verification; writes REPORT.md
  report     print a run's REPORT.md (report.json with --json); DIR is the workspace or the repository
  worker     serve the run queue in Postgres (docs/fleet.md); each run's events on stdout as NDJSON
  enqueue    put a run on the queue; SOURCE is a path or git URL every worker can clone
  runs       every run's state from the database; show ID: one run, its worker, branch and REPORT.md

Options:
  --repo DIR             the repository (default: the current directory)
  --agent "CMD ARGS…"    the program answering the agent protocol (docs/agent-protocol.md), run in
                         the repository once per call
  --assumptions FILE     the plan's assumptions (a path from the current directory), read before
                         anything runs, checked at the start and before every stage
  --include-optional     run optional stages too
  --execute-may-edit-surface
                         let a stage's execute edit or delete the tests and files its acceptance
                         rests on, as pinned at the stage's base (default: undone, escalated)
  --budget N             attempts per stage, the execute included (default 3)
  --token-target N       no agent call starts once N tokens are spent
  --agent-timeout-ms N   how long one agent call may run before its process group is stopped and
                         the call returns nothing (default 1800000, 30 minutes)
  --clean-room K         clone (default), worktree or isomorphic
  --setup "CMD"          run once in every fresh clean room (e.g. "npm ci")
  --json                 NDJSON events, then the report (run); JSON (preflight, verify, report)
  --durable DIR          run as a DBOS workflow kept in DIR (embedded PGlite, experimental): a
                         killed run started again with the same flags resumes (docs/fleet.md)
  --max-input-bytes N    the largest plan, contract or assumptions file read, and (run) the largest
                         file read back from the working tree (default 67108864, at most 268435456)
  --pattern-timeout-ms N how long one acceptance regex (matches /re/) may run before it is stopped,
                         a fault with no verdict (default 10000); on worker, in every run it serves

Exit: 0 every required stage green; 1 not green (escalated, failed, parked, stale plan, interrupted),
the reason on the last line; 2 a fault (the message names the input). See docs/executor-cli.md.
`;
