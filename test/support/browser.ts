/**
 * Test support: a headless Chromium for the browser tests, with nothing to download at run time.
 * The system's Chromium when there is one (CHROMIUM_PATH, or chromium / chromium-browser /
 * google-chrome on PATH), else the Chromium that ships inside the @sparticuz/chromium npm package
 * (brotli-compressed in the package; unpacked once into node_modules/.cache).
 */
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The system's Chromium: CHROMIUM_PATH when set, else the first of SYSTEM_NAMES on PATH; null when there is none. */
export function systemChromium(env: NodeJS.ProcessEnv = process.env, isExecutable: (path: string) => boolean = executable): string | null {
  if (env.CHROMIUM_PATH) {
    if (!isExecutable(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file`);
    return env.CHROMIUM_PATH;
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  for (const name of SYSTEM_NAMES) for (const dir of dirs) if (isExecutable(join(dir, name))) return join(dir, name);
  return null;
}

/**
 * The packaged Chromium, unpacked into node_modules/.cache/arcgraph-chromium-<version>/. The
 * package unpacks into os.tmpdir() without a lock, so it unpacks into a fresh folder of our own
 * (TMPDIR pointed there for the call) that is renamed into place: a test file running at the same
 * time never sees a half-written binary.
 */
export async function packagedChromium(): Promise<string> {
  // the package's exports hide its package.json: find it from its entry point (build/cjs/index.cjs)
  const entry = createRequire(join(PACKAGE_ROOT, 'package.json')).resolve('@sparticuz/chromium');
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8')) as { version: string };
  const cache = join(PACKAGE_ROOT, 'node_modules', '.cache', `arcgraph-chromium-${version}`);
  const binary = join(cache, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(dirname(cache), { recursive: true });
  const staging = mkdtempSync(`${cache}.unpacking-`);
  const { default: Packaged } = await import('@sparticuz/chromium');
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    const unpacked = await Packaged.executablePath();
    if (dirname(unpacked) !== staging) throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not into ${staging}`);
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  // fontconfig for its fonts when the system has none of its own
  writeFileSync(join(staging, 'fonts.conf'), `<?xml version="1.0"?>\n<fontconfig><dir>${join(cache, 'fonts')}</dir><include ignore_missing="yes">/etc/fonts/fonts.conf</include></fontconfig>\n`);
  try {
    renameSync(staging, cache);
  } catch (err) {
    // another test process got there first: use its copy
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw err;
  }
  return binary;
}

export interface LaunchedChromium {
  browser: Browser;
  source: 'system' | 'package';
  path: string;
}

/**
 * Headless Chromium with software WebGL (SwiftShader, for sigma.js) and nothing that talks to the
 * network on its own. `--no-sandbox`: the tests may run as root, where the sandbox refuses to start.
 */
export async function launchChromium(): Promise<LaunchedChromium> {
  const system = systemChromium();
  const path = system ?? (await packagedChromium());
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  if (!system && !existsSync('/etc/fonts/fonts.conf')) env.FONTCONFIG_FILE = join(dirname(path), 'fonts.conf');
  const browser = await chromium.launch({
    executablePath: path,
    headless: true,
    env,
    args: [
      '--no-sandbox',
      '--use-gl=angle',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-domain-reliability',
      '--no-pings',
    ],
  });
  return { browser, source: system ? 'system' : 'package', path };
}
