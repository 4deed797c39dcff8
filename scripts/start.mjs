// `npm start`: installs dependencies on first run (saying so, with progress), then starts the playground
// (host + real MCP servers + demo page), which prints each step and finally the URL.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Packages in node_modules so far (scoped ones counted one by one). */
function installedCount() {
  let n = 0;
  try {
    for (const entry of readdirSync('node_modules', { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      n += entry.name.startsWith('@') ? readdirSync(`node_modules/${entry.name}`).length : 1;
    }
  } catch {
    // not created yet
  }
  return n;
}

/** Runs `npm ci` (or `npm install` without a lock file), printing progress every few seconds; resolves with its exit code. */
function install() {
  const command = existsSync('package-lock.json') ? 'ci' : 'install';
  console.log(`First run: installing dependencies with \`npm ${command}\` (MCP servers, Lit, the test browser driver; a few minutes).`);
  const started = Date.now();
  const tty = process.stdout.isTTY;
  const child = spawn(npm, [command, '--no-audit', '--no-fund'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (d) => output.push(d));
  child.stderr.on('data', (d) => output.push(d));
  let last = 0;
  const tick = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    const line = `  still installing… ${seconds} s, ${installedCount()} packages in node_modules`;
    if (tty) process.stdout.write(`\r${line}`);
    else if (seconds - last >= 15) {
      last = seconds;
      console.log(line);
    }
  }, 1000);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(tick);
      if (tty) process.stdout.write('\n');
      const seconds = Math.round((Date.now() - started) / 1000);
      const text = Buffer.concat(output).toString().trim();
      if (code === 0) {
        console.log(`Installed ${installedCount()} packages in ${seconds} s.`);
        // npm's own warnings stay visible (each should be explained in the README).
        for (const line of text.split('\n')) if (/^npm (warn|WARN)/.test(line)) console.log(line);
      } else {
        console.error(`npm ${command} failed (exit ${code}) after ${seconds} s:\n${text}`);
      }
      resolve(code ?? 1);
    });
    child.on('error', (err) => {
      clearInterval(tick);
      console.error(`Could not run npm: ${err.message}`);
      resolve(1);
    });
  });
}

if (!existsSync('node_modules/.package-lock.json') || !existsSync('node_modules/tsx')) {
  const code = await install();
  if (code !== 0) process.exit(code);
}

console.log('Starting the playground…');
const child = spawn(process.execPath, ['--import', 'tsx', 'examples/playground/main.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
