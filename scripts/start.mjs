// `npm start`: installs dependencies on first run, then starts the playground (host + real MCP servers + demo page).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
if (!existsSync('node_modules/.package-lock.json') || !existsSync('node_modules/tsx')) {
  console.log('Installing dependencies (first run)…');
  const r = spawnSync(npm, [existsSync('package-lock.json') ? 'ci' : 'install'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const child = spawn(process.execPath, ['--import', 'tsx', 'examples/playground/main.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
