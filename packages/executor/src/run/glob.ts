// Globs for the pinned surface: `**` any number of segments, `*` and `?` within one segment.

function escape(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** A glob as an anchored regular expression over `/`-separated relative paths. */
export function globRegExp(glob: string): RegExp {
  let src = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      src += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (ch === "*") src += "[^/]*";
    else if (ch === "?") src += "[^/]";
    else src += escape(ch);
  }
  return new RegExp(`^${src}$`);
}

/** The paths any of the globs match. */
export function matchGlobs(paths: readonly string[], globs: readonly string[]): string[] {
  const res = globs.map(globRegExp);
  return paths.filter((p) => res.some((re) => re.test(p)));
}
