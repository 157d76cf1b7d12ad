import { existsSync } from 'node:fs';
import { capture, run } from './run.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Browser tests use Debian's chromium (test tools can't download browsers here). Installs it
 * with apt-get when missing and we may (root, or passwordless sudo); returns whether it is there.
 */
export async function ensureChromium(): Promise<boolean> {
  if (existsSync(CHROMIUM_PATH)) return true;
  const isRoot = process.getuid?.() === 0;
  const sudo = isRoot ? [] : (await capture('sudo', ['-n', 'true'])).code === 0 ? ['sudo', '-n'] : null;
  if (!sudo) {
    console.log(
      `chromium: ${CHROMIUM_PATH} is missing and installing it needs root (apt-get install chromium).`,
    );
    return false;
  }
  if (!existsSync('/usr/bin/apt-get')) {
    console.log(`chromium: ${CHROMIUM_PATH} is missing and this machine has no apt-get.`);
    return false;
  }
  console.log('chromium: installing Debian’s chromium for the browser tests…');
  const [command = 'apt-get', ...prefix] = sudo.length ? sudo : ['apt-get'];
  const aptArgs = (args: string[]) => (sudo.length ? [...prefix, 'apt-get', ...args] : args);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  await run(command, aptArgs(['update', '-qq']), env);
  const code = await run(
    command,
    aptArgs(['install', '-y', '-qq', '--no-install-recommends', 'chromium']),
    env,
  );
  return code === 0 && existsSync(CHROMIUM_PATH);
}
