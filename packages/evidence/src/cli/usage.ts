/** The version `--version` prints; a test keeps it equal to package.json. */
export const VERSION = "0.1.0";

/** The text `--help` prints. */
export const HELP = `decay-evidence: save post-merge evidence locally, then publish it as one canonical comment

usage:
  decay-evidence prepare RECORD.json          save a snapshot and a pending envelope; prints its path
  decay-evidence status                       pending and published records of this project
  decay-evidence publish PATH --github OWNER/REPO [--allow-publish --content-sha256 HEX]
                 [--author-id N --author-login LOGIN] [--api-url URL]
                                              publish one envelope (token from GITHUB_TOKEN)
  decay-evidence hash RECORD.json [--body]    content_sha256 and key_hash (and the exact comment body)
  decay-evidence slug PATH                    the store folder name of a project path

options of prepare, status and publish (the commands that open the store):
  --home DIR        the home the store lives under, an absolute path (default: $HOME)
  --layout L        decay (<home>/.decay/evidence/<slug>/) or agentflow (<home>/.sentimony/agentflow/implement/<slug>/)
  --repo DIR        the project checkout (default: the working directory)
  --max-input-bytes N  refuse a record file, or a store file, larger than N bytes
                    (default 67108864, 64 MiB; at most 268435456); hash takes it too
every command: --json (print one JSON object instead of text), --help; and --version alone
A flag a command does not use is refused, naming it.

A RECORD.json of "-" is read from standard input; a FIFO, device or socket is refused.
status also reports each snapshot that is missing, corrupt or unreadable (with why) and each unreadable envelope.
exit: 0 published or ok, 1 still pending, a snapshot not ok, an envelope unreadable,
or a published record this run could not confirm (the reason is printed), 2 any fault (the
message is on stderr). Limits: docs/limits.md.
`;
