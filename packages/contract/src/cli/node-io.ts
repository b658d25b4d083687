import type { CliIo } from "./io.js";

function writer(stream: NodeJS.WriteStream): (text: string) => Promise<void> {
  // A broken pipe arrives as an 'error' event; the pending write's callback reports it too.
  stream.on("error", () => {});
  return (text) =>
    new Promise((resolve, reject) => {
      stream.write(text, (e) => (e ? reject(e) : resolve()));
    });
}

/** The CLI's io bound to this process. */
export function processIo(): CliIo {
  return { stdout: writer(process.stdout), stderr: writer(process.stderr), cwd: process.cwd(), env: process.env };
}
