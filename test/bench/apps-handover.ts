// Benchmark: handing a View's HTML from the page to a frame on a sandbox origin (another renderer process), as
// SandboxFrame.sendResource does, four ways side by side: UTF-8 bytes whose buffer is transferred with a window message
// (what sendResource does: encodeInto on the page, TextDecoder in the frame), the same bytes over a MessagePort the
// frame holds, the string itself (structured clone; the frame's first read of `event.data` deserializes it), and
// UTF-16 code units as bytes (a charCodeAt loop; TextDecoder('utf-16le') in the frame). Uses the published Views'
// real HTML (threejs ~1.1 MB, pdf ~4.3 MB; both have characters beyond Latin-1, so V8 holds them as two-byte strings).
// Times, from one clock (timeOrigin + now in both processes): the page's part (encode, post), the delivery (post
// returned → the frame's message event), the frame's part (decode) and in all (the page starts → the frame has the
// string). The same string every round (Chromium converts a fresh string on its first encode, which costs more:
// 66-170 ms for the PDF View in an App, profiled in session 11). Alternates the order; medians.
// Prints; asserts nothing.
// Run: node --import tsx test/bench/apps-handover.ts [rounds]
import { loadavg } from 'node:os';
import { startPlayground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { launchChromium, openSessionPage } from '../fixtures/playground-page.js';

const ROUNDS = Number(process.argv[2] ?? 9);
const VIEWS = [
  { serverId: 'threejs', module: 'server-threejs', uri: 'ui://threejs/mcp-app.html' },
  { serverId: 'pdf', module: 'server-pdf', uri: 'ui://pdf-viewer/mcp-app.html' },
];
const config = parseConfig({ servers: VIEWS.map((v) => ({ id: v.serverId, name: v.serverId, transport: 'stdio', command: 'node', args: [`node_modules/@modelcontextprotocol/${v.module}/dist/index.js`, '--stdio'] })) });
const playground = await startPlayground({ port: 0, config, log: () => {} });
const browser = await launchChromium({ networkEnabled: false });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  await playground.startServers();
  const page = await browser.newPage();
  await openSessionPage(page, playground, { id: 'bench-session' });
  const sandbox = playground.apps.sandboxes.get('pdf')!;
  // A frame on the sandbox origin (its own process), its receiver installed from DevTools.
  await page.evaluate((url: string) => {
    const frame = document.createElement('iframe');
    frame.id = 'receiver';
    frame.src = url;
    document.body.append(frame);
    return new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  }, `${sandbox.blankUrl}?parent=${encodeURIComponent(new URL(playground.url).origin)}`);
  const receiver = page.frames().find((f) => f.url().startsWith(sandbox.blankUrl))!;
  await receiver.evaluate((parentOrigin: string) => {
    const now = () => performance.timeOrigin + performance.now();
    const receive = (event: MessageEvent) => {
      const t3 = now();
      const data = event.data as { html: string | ArrayBuffer };
      const html = typeof data.html === 'string' ? data.html : new TextDecoder((data as { enc?: string }).enc ?? 'utf-8').decode(data.html);
      const t4 = now();
      parent.postMessage({ t3, t4, length: html.length }, parentOrigin);
    };
    addEventListener('message', (event) => {
      if (event.ports[0]) event.ports[0].onmessage = receive;
      else receive(event);
    });
  }, new URL(playground.url).origin);
  await page.evaluate((origin: string) => {
    const { port1, port2 } = new MessageChannel();
    (window as unknown as { __port: MessagePort }).__port = port1;
    (document.getElementById('receiver') as HTMLIFrameElement).contentWindow!.postMessage('port', { targetOrigin: origin, transfer: [port2] });
  }, sandbox.origin);
  const htmls: string[] = [];
  for (const v of VIEWS) {
    htmls.push(
      await page.evaluate(async (serverId: string, uri: string) => {
        const session = document.getElementById('bench-session') as unknown as { currentHandle: { mcpChannel(id: string): { request(m: string, p: unknown): Promise<{ contents: { text?: string }[] }> } } };
        const text = (await session.currentHandle.mcpChannel(serverId).request('resources/read', { uri })).contents[0]?.text ?? '';
        ((window as unknown as { __views: string[] }).__views ??= []).push(text);
        return `${text.length} units, ${/^[\x00-\xff]*$/.test(text) ? 'Latin-1 only' : 'not Latin-1'}`;
      }, v.serverId, v.uri),
    );
  }
  const handOver = (index: number, how: 'bytes' | 'string' | 'utf16' | 'port', origin: string) =>
    page.evaluate(
      (index: number, how: string, origin: string) =>
        new Promise<number[]>((resolve) => {
          const html = (window as unknown as { __views: string[] }).__views[index]!;
          const frame = (document.getElementById('receiver') as HTMLIFrameElement).contentWindow!;
          const now = () => performance.timeOrigin + performance.now();
          const onMessage = (event: MessageEvent) => {
            if (event.origin !== origin) return;
            removeEventListener('message', onMessage);
            const { t3, t4, length } = event.data as { t3: number; t4: number; length: number };
            if (length !== html.length) throw new Error('wrong length');
            resolve([t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0]);
          };
          addEventListener('message', onMessage);
          const t0 = now();
          let t1: number;
          if (how === 'bytes') {
            const bytes = new Uint8Array(html.length * 3);
            const buffer = bytes.slice(0, new TextEncoder().encodeInto(html, bytes).written).buffer;
            t1 = now();
            frame.postMessage({ html: buffer }, { targetOrigin: origin, transfer: [buffer] });
          } else if (how === 'port') {
            const bytes = new Uint8Array(html.length * 3);
            const buffer = bytes.slice(0, new TextEncoder().encodeInto(html, bytes).written).buffer;
            t1 = now();
            (window as unknown as { __port: MessagePort }).__port.postMessage({ html: buffer }, [buffer]);
          } else if (how === 'utf16') {
            const units = new Uint16Array(html.length);
            for (let i = 0; i < html.length; i++) units[i] = html.charCodeAt(i);
            t1 = now();
            frame.postMessage({ html: units.buffer, enc: 'utf-16le' }, { targetOrigin: origin, transfer: [units.buffer] });
          } else {
            t1 = now();
            frame.postMessage({ html }, { targetOrigin: origin });
          }
          const t2 = now();
        }),
      index,
      how,
      origin,
    );
  console.log(`Hand-over of a View's HTML to a sandbox-origin frame: ${ROUNDS} rounds, alternating; load average at start ${loadavg()[0]!.toFixed(1)}`);
  const loads: number[] = [];
  for (const [index, v] of VIEWS.entries()) {
    const samples = { bytes: [] as number[][], string: [] as number[][], utf16: [] as number[][], port: [] as number[][] };
    for (let round = -1; round < ROUNDS; round++) {
      loads.push(loadavg()[0]!);
      for (const how of round % 2 ? (['bytes', 'string', 'utf16', 'port'] as const) : (['port', 'utf16', 'string', 'bytes'] as const)) {
        const t = await handOver(index, how, sandbox.origin);
        if (round >= 0) samples[how].push(t);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    console.log(`\n${v.serverId} (${htmls[index]})`);
    for (const how of ['bytes', 'port', 'string', 'utf16'] as const) {
      const col = (i: number) => median(samples[how].map((t) => t[i]!)).toFixed(1).padStart(6);
      console.log(`  ${how.padEnd(6)}  page: encode ${col(0)}  post ${col(1)}  | delivery ${col(2)} | frame: decode ${col(3)} | in all ${col(4)} ms (medians, n=${samples[how].length})`);
    }
  }
  console.log(`\nload average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
} finally {
  await browser.close();
  await playground.close();
}
