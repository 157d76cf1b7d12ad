import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The CSV export downloaded as a browser's network process takes it: in a small process of its
 * own, so neither the seeding's heap nor the bench's other work slows the client down. The
 * bench's own process had just seeded 100,000 rows; downloading there made a first export
 * 9–15% slower than a fresh client did on the same server (docs/benchmarks.md). Run as a
 * script (`node export-download.ts` with EXPORT_URL, EXPORT_TOKEN and EXPORT_ENCODING), it
 * prints one JSON line: the records received, the seconds from request to last byte, and the
 * encoding the server chose.
 */
export interface Download {
  rows: number;
  seconds: number;
  encoding: string;
}

const SCRIPT = fileURLToPath(import.meta.url);

/** Downloads `url` with `accept-encoding: encoding` in a child process and reports it. */
export function downloadInOwnProcess(url: string, token: string, encoding: string): Promise<Download> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [SCRIPT],
      { env: { ...process.env, EXPORT_URL: url, EXPORT_TOKEN: token, EXPORT_ENCODING: encoding } },
      (error, stdout) => {
        if (error) reject(error);
        else resolve(JSON.parse(stdout) as Download);
      },
    );
  });
}

/** The child's side: fetch, decompress (fetch does, as a browser does), and count the records. */
async function download(): Promise<Download> {
  const started = performance.now();
  const response = await fetch(process.env.EXPORT_URL as string, {
    headers: {
      authorization: `Bearer ${process.env.EXPORT_TOKEN}`,
      'accept-encoding': process.env.EXPORT_ENCODING as string,
    },
  });
  if (!response.ok || !response.body) throw new Error(`export: ${response.status}`);
  let lines = 0;
  for await (const chunk of response.body) {
    const bytes = chunk as Uint8Array;
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines += 1;
  }
  return {
    rows: lines - 1,
    seconds: (performance.now() - started) / 1000,
    encoding: response.headers.get('content-encoding') ?? 'identity',
  };
}

if (process.argv[1] === SCRIPT) process.stdout.write(`${JSON.stringify(await download())}\n`);
