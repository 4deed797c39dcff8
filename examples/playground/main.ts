/** `npm start`: runs the playground until Ctrl+C. Flags: --config <file>, --port <n>, --host <addr>, --allow-origin <origin> (repeatable). */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, DEFAULT_CONFIG_PATH } from './config.js';
import { startPlayground } from './playground.js';

const usage =
  'Usage: npm start -- [--config <servers.json>] [--port <n>] [--host <addr>] [--allow-origin <origin>]…\n' +
  '  --allow-origin  another page origin (e.g. http://localhost:8080) whose pages may connect; repeat for more';

function parseCli() {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      port: { type: 'string', default: '4173' },
      host: { type: 'string', default: '127.0.0.1' },
      'allow-origin': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, got "${values.port}"`);
  // npm runs scripts in the package root; resolve --config against where the user typed the command
  const configPath = values.config ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.config) : DEFAULT_CONFIG_PATH;
  const allowOrigins = values['allow-origin'].map(parseOrigin);
  return { port, host: values.host, configPath, allowOrigins };
}

/** `http://localhost:8080` (a trailing slash or path is tolerated; only the origin counts). */
function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--allow-origin needs an origin like http://localhost:8080, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--allow-origin must be an http(s) origin, got "${value}"`);
  return url.origin;
}

async function main(): Promise<void> {
  let cli;
  try {
    cli = parseCli();
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
  const playground = await startPlayground({ ...cli, log: (line) => console.log(line) });
  console.log(`\nAHP playground: ${playground.url}\n  WebSocket ${playground.wsUrl}, session ${playground.sessionUri}`);
  const shownPath = path.relative(process.cwd(), cli.configPath);
  console.log(`  servers from ${shownPath.startsWith('..') ? cli.configPath : shownPath}: ${[...playground.servers.keys()].join(', ')}`);
  if (cli.allowOrigins.length) console.log(`  pages from ${cli.allowOrigins.join(', ')} may connect too (--allow-origin)`);
  console.log(`  the CDN file for other pages: ${playground.url}cdn/ahp-elements.min.js`);
  console.log('  Ctrl+C stops the playground and its servers.\n');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping servers…`);
    const force = setTimeout(() => {
      console.error('Servers did not stop in time; exiting anyway.');
      process.exit(1);
    }, 10_000);
    force.unref();
    playground.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`${(err as Error).message}: the port is taken; try --port <n> (0 picks a free one).`);
  else console.error(err);
  process.exit(1);
});
