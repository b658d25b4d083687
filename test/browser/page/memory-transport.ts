// The smallest forge a page can publish evidence to: comments in an array, behind the Transport
// port. `@decay/evidence/testing` has a richer one (memoryForge), but that entry also carries the
// node:http test server and the vitest suites, so a browser page writes its own, as a host would.
import { fromAsyncTransport, markerLine, type ForgeAuthor, type ForgeComment, type Transport } from "@decay/evidence";

/** A forge held in memory: the transport that writes to it, and what it holds. */
export interface PageForge {
  readonly transport: Transport;
  readonly comments: ForgeComment[];
}

/** An in-memory forge whose transport writes as `author`; comment URLs are under `https://<repo>`. */
export function pageForge(author: ForgeAuthor): PageForge {
  const comments: ForgeComment[] = [];
  const find = (id: number, repo: string, pr: number): ForgeComment => {
    const found = comments.find((c) => c.id === id && c.repo === repo && c.pr === pr);
    if (found === undefined) throw new Error(`no comment ${id} on ${repo}#${pr}`);
    return found;
  };
  const transport = fromAsyncTransport({
    currentAuthor: async () => author,
    lookup: async (t) => {
      const matches = comments.filter((c) => c.repo === t.repo && c.pr === t.pr && c.body.startsWith(`${markerLine(t.keyHash)}\n`));
      return { complete: true, absence_confirmed: true, matches };
    },
    create: async (t) => {
      const id = comments.length + 1;
      const url = `https://${t.repo}/pull/${t.pr}#issuecomment-${id}`;
      comments.push({ id, url, repo: t.repo, pr: t.pr, author_id: author.id, author_login: author.login, body: t.body });
      return id;
    },
    update: async (t) => {
      const c = find(t.commentId, t.repo, t.pr);
      comments[comments.indexOf(c)] = { ...c, body: t.body };
      return c.id;
    },
    read: async (t) => find(t.commentId, t.repo, t.pr),
  });
  return { transport, comments };
}
