import { describe, expect, test } from "vitest";
import { startTestServer } from "./test-server.js";

const ME = { id: 5n, login: "me" };

describe("test server", () => {
  test("honours per_page and links every page to the next, ending without one", async () => {
    const server = await startTestServer({ repo: "forge.test/o/r", tokens: { t: { author: ME } } });
    try {
      for (let i = 0; i < 20; i += 1) server.seed(3, `c${i}`, ME);
      server.seed(4, "other PR", ME);
      const sizes: number[] = [];
      let url: string | undefined = `${server.baseUrl}/repos/o/r/issues/3/comments?per_page=7`;
      while (url !== undefined) {
        const res: Response = await fetch(url, { headers: { authorization: "Bearer t" } });
        sizes.push(((await res.json()) as unknown[]).length);
        url = /<([^>]*)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
      }
      expect(sizes).toEqual([7, 7, 6]);
    } finally {
      await server.close();
    }
  });

  test("refuses unknown tokens (401) and /user for App tokens (403)", async () => {
    const server = await startTestServer({ repo: "forge.test/o/r", tokens: { app: { author: ME, app: true } } });
    try {
      const none = await fetch(`${server.baseUrl}/user`, { headers: { authorization: "Bearer nope" } });
      const app = await fetch(`${server.baseUrl}/user`, { headers: { authorization: "Bearer app" } });
      expect([none.status, app.status]).toEqual([401, 403]);
    } finally {
      await server.close();
    }
  });
});
