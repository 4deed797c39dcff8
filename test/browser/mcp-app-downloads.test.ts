import { expect } from '@open-wc/testing';
import { saveDownloads } from '../../elements/mcp-app/default-actions.js';
import type { DownloadRequest } from '../../src/apps/bridge.js';

/** What each saved file became: its name and its bytes, read back from the object URL the anchor was given. */
async function savedFiles(request: DownloadRequest): Promise<{ name: string; type: string; bytes: number[] }[]> {
  const clicked: HTMLAnchorElement[] = [];
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    clicked.push(this);
  };
  try {
    saveDownloads(request);
  } finally {
    HTMLAnchorElement.prototype.click = click;
  }
  return Promise.all(
    clicked.map(async (a) => {
      const blob = await (await fetch(a.href)).blob();
      return { name: a.download, type: blob.type, bytes: [...new Uint8Array(await blob.arrayBuffer())] };
    }),
  );
}

const file = (fileName: string, resource: Record<string, unknown>) => ({ fileName, item: { type: 'resource', resource: { uri: `file:///${fileName}`, ...resource } } });

describe('saveDownloads (the default action of a View download)', () => {
  it('saves base64 blobs byte for byte and text as UTF-8; a malformed blob is skipped and the files after it are still saved', async () => {
    const all = Array.from({ length: 256 }, (_, i) => i);
    const base64 = btoa(String.fromCharCode(...all));
    const saved = await savedFiles({
      contents: [
        file('broken.bin', { blob: 'this is not base64 ***', mimeType: 'application/octet-stream' }),
        file('all-bytes.bin', { blob: base64, mimeType: 'application/octet-stream' }),
        file('note.txt', { text: 'é', mimeType: 'text/plain' }),
        file('no-content.bin', {}),
      ],
    } as unknown as DownloadRequest);
    expect(saved.map((f) => f.name)).to.deep.equal(['all-bytes.bin', 'note.txt']);
    expect(saved[0]!.bytes).to.deep.equal(all);
    expect(saved[0]!.type).to.equal('application/octet-stream');
    expect(saved[1]!.bytes).to.deep.equal([0xc3, 0xa9]);
    expect(saved[1]!.type).to.equal('text/plain');
  });

  it('decodes a multi-megabyte blob exactly', async () => {
    const size = 3 * 1024 * 1024;
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
    let binary = '';
    for (let i = 0; i < size; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    const [saved] = await savedFiles({ contents: [file('big.bin', { blob: btoa(binary) })] } as unknown as DownloadRequest);
    expect(saved!.bytes.length).to.equal(size);
    expect(saved!.bytes.every((b, i) => b === bytes[i])).to.equal(true);
  });
});
