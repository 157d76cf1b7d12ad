import { isColorSupported, prettyFactory } from 'pino-pretty';

/** LOG_FORMAT: text lines for a person at a terminal, or one JSON object a line for a collector. */
export type LogFormat = 'pretty' | 'json';

export interface LogWriter {
  write(line: string): unknown;
}

/**
 * The format the log is written in: LOG_FORMAT when set; otherwise pretty when the log goes to a
 * terminal, and JSON when anything else (journald, Docker, a file, a pipe) collects it.
 */
export function chooseLogFormat(configured: LogFormat | undefined, toTerminal: boolean): LogFormat {
  return configured ?? (toTerminal ? 'pretty' : 'json');
}

/**
 * A log destination that turns each line pino wrote into text, in-process and synchronously (no
 * worker thread, so nothing is lost when the process exits). Pino has already serialized and
 * redacted the line, so a secret replaced by `[redacted]` stays replaced (docs/security.md#c5).
 */
export function prettyLogStream(out: LogWriter, colorize: boolean): { write(line: string): void } {
  const pretty = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    // One process on one machine: the terminal already says which.
    ignore: 'pid,hostname',
  });
  return {
    write(line: string) {
      out.write(pretty(line));
    },
  };
}

/**
 * The stream the app's logger writes to: `destination` (a test's capture) or standard output,
 * in the format LOG_FORMAT chose, or the terminal test picked. `undefined` leaves pino's own fast
 * JSON writer to standard output in place.
 */
export function logDestination(
  configured: LogFormat | undefined,
  destination: LogWriter | undefined,
): LogWriter | undefined {
  const toTerminal = destination === undefined && process.stdout.isTTY === true;
  if (chooseLogFormat(configured, toTerminal) === 'json') return destination;
  return prettyLogStream(destination ?? process.stdout, toTerminal && isColorSupported);
}
