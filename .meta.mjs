import * as esbuild from 'esbuild';
const entry = process.argv[2];
const r = await esbuild.build({entryPoints:[entry], bundle:true, minify:true, write:false, metafile:true, format:'esm', outfile:'/tmp/x.js', platform:'browser', external:[]});
const out = Object.values(r.metafile.outputs)[0];
const rows = Object.entries(out.inputs).map(([k,v])=>[v.bytesInOutput,k]).sort((a,b)=>b[0]-a[0]);
let dirs={};
for (const [b,k] of rows){ const d=k.split('/').slice(0,k.startsWith('node_modules')?2:2).join('/'); dirs[d]=(dirs[d]||0)+b;}
console.log('total', out.bytes);
console.log(Object.entries(dirs).sort((a,b)=>b[1]-a[1]).map(([d,b])=>`${b}\t${d}`).join('\n'));
console.log('---');
console.log(rows.slice(0,40).map(([b,k])=>`${b}\t${k}`).join('\n'));
