import { isInteger, parse } from "lossless-json";
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import type { ForgeAuthor, ForgeComment } from "./port.js";

/**
 * Parses a GitHub reply without losing integers: every integer becomes a `bigint` (ids may
 * exceed 2^53), every other number a `number`. Invalid JSON is a value, not a throw.
 */
export function parseGithubJson(text: string): Result<unknown, string> {
  try {
    return ok(parse(text, null, (n: string) => (isInteger(n) ? BigInt(n) : Number.parseFloat(n))));
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
}

/** A GitHub user as `GET /user` and a comment's `user` give it. */
export const GithubUser = z.object({ id: z.bigint().positive(), login: z.string().min(1) });
/** A GitHub user. */
export type GithubUser = z.infer<typeof GithubUser>;

/** The fields of a GitHub issue comment this transport relies on. */
export const GithubComment = z.object({
  id: z.bigint().positive().max(BigInt(Number.MAX_SAFE_INTEGER)),
  html_url: z.string().min(1),
  issue_url: z.string().min(1),
  body: z.string(),
  user: GithubUser,
});
/** A GitHub issue comment. */
export type GithubComment = z.infer<typeof GithubComment>;

/** One page of a comment listing: only `body` is needed to decide whether an entry matters. */
export const GithubListing = z.array(z.looseObject({ body: z.string().nullish() }));

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

/** Checks `json` against `schema`, naming what is wrong. */
export function check<T>(schema: z.ZodType<T>, json: unknown, what: string): Result<T, string> {
  const parsed = schema.safeParse(json);
  return parsed.success ? ok(parsed.data) : err(`malformed ${what}: ${issues(parsed.error)}`);
}

/** The author a `GET /user` reply names. */
export function toAuthor(json: unknown): Result<ForgeAuthor, string> {
  return check(GithubUser, json, "user").map((u) => ({ id: u.id, login: u.login }));
}

const ISSUE_PATH = /\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/;

/**
 * Maps a GitHub comment to a `ForgeComment`. Repository and PR come from the comment's own
 * `issue_url`, so a comment that lives elsewhere is reported where it lives (and then refused by
 * `publish`), never relabelled as the configured place.
 */
export function toComment(json: unknown, repo: string): Result<ForgeComment, string> {
  return check(GithubComment, json, "comment").andThen((c) => {
    let path: string;
    try {
      path = new URL(c.issue_url).pathname;
    } catch {
      return err(`malformed comment: issue_url ${JSON.stringify(c.issue_url)} is not a URL`);
    }
    const m = ISSUE_PATH.exec(path);
    if (m === null) return err(`malformed comment: issue_url ${JSON.stringify(c.issue_url)} names no issue`);
    const [host, owner = "", name = ""] = repo.split("/");
    const [, o = "", r = "", n = ""] = m;
    if (!Number.isSafeInteger(Number(n))) return err(`malformed comment: issue number ${n} is out of range`);
    const same = o.toLowerCase() === owner.toLowerCase() && r.toLowerCase() === name.toLowerCase();
    return ok({
      id: Number(c.id),
      url: c.html_url,
      repo: same ? repo : `${host}/${o}/${r}`,
      pr: Number(n),
      author_id: c.user.id,
      author_login: c.user.login,
      body: c.body,
    });
  });
}
